/* The best lay-down (best.h): runs of 13 cards (full_runs.offer_full_runs). */
#include "best.h"

/* The naturals the full runs at places[choice[...]] (suit, lowest value) hold, the k-th run of a suit the k-th
 * layer of copies (full_runs._naturals_held). */
static int naturals_held(const int *choice, int n_runs, const int (*places)[2], int (*layers)[MAX_SLOTS])
{
    int held = 0;
    for (int index = 0; index < n_runs; index++) {
        int suit = places[choice[index]][0], k = 0;
        while (k < index && places[choice[index - 1 - k]][0] == suit)
            k++;
        held += layers[suit][k];
    }
    return held;
}

/* Offer the lay-downs of runs only whose runs all hold 13 cards, for each choice of places (in
 * itertools.combinations_with_replacement order): the naturals of the pool fill their places run by run, wilds
 * the others, and the cheapest naturals give way to wilds while a wild is worth more (full_runs.offer_full_runs,
 * _full_runs_at, _give_way). */
void offer_full_runs(Best *best)
{
    int places[8][2], n_places = 0, n_runs = best->n_runs;
    for (int suit = 0; suit < 4; suit++)
        for (int low = best->lo; low <= best->hi - 12; low++) {
            places[n_places][0] = suit;
            places[n_places++][1] = low;
        }
    int lacking = 13 * n_runs - best->n_wilds, most_kinds = 0;
    int layers[4][MAX_SLOTS];
    for (int suit = 0; suit < 4; suit++) {
        int kinds = 0;
        for (int k = 0; k < n_runs; k++) {
            layers[suit][k] = 0;
            for (int card = suit * 13; card < suit * 13 + 13; card++)
                layers[suit][k] += best->pool[card] > k;
        }
        for (int card = suit * 13; card < suit * 13 + 13; card++)
            kinds += best->pool[card] > 0;
        most_kinds = kinds > most_kinds ? kinds : most_kinds;
    }
    if (n_runs * most_kinds < lacking || !n_places)
        return;
    const int *wp = best->top_wild_pts;
    int choice[MAX_SLOTS] = {0};
    for (;;) {
        if (naturals_held(choice, n_runs, places, layers) >= lacking) {
            int naturals[13 * MAX_SLOTS], n_naturals = 0;
            for (int i = 0; i < n_runs; i++) { /* _full_runs_at */
                Run *run = &best->stack[i];
                *run = (Run){.suit = places[choice[i]][0], .low = places[choice[i]][1], .n_taken = 0};
                run->high = run->low + 12;
                for (int value = run->low; value <= run->high; value++) {
                    int card = card_at(run->suit, value);
                    if (best->pool[card]) {
                        best->pool[card]--;
                        run->taken[run->n_taken++] = card;
                        naturals[n_naturals++] = card;
                    }
                }
            }
            for (int k = 0; k < n_naturals; k++)
                best->pool[naturals[k]]++;
            int forced = 13 * n_runs - n_naturals;
            if (forced <= best->n_wilds) {
                /* The naturals cheapest first (then card order): those that give way to wilds worth more. */
                for (int k = 1; k < n_naturals; k++)
                    for (int m = k; m > 0; m--) {
                        int a = naturals[m - 1], b = naturals[m];
                        if (best->points[a] < best->points[b] || (best->points[a] == best->points[b] && a <= b))
                            break;
                        naturals[m - 1] = b;
                        naturals[m] = a;
                    }
                int given = 0;
                while (forced + given < best->n_wilds && given < n_naturals
                       && wp[forced + given + 1] - wp[forced + given] > best->points[naturals[given]])
                    given++;
                int used_pts = wp[forced + given];
                for (int k = given; k < n_naturals; k++)
                    used_pts += best->points[naturals[k]];
                int giving[NATURALS] = {0};
                for (int k = 0; k < given; k++)
                    giving[naturals[k]]++;
                for (int i = 0; i < n_runs && given; i++) { /* _give_way */
                    Run *run = &best->stack[i];
                    int kept = 0;
                    for (int k = 0; k < run->n_taken; k++) {
                        if (giving[run->taken[k]])
                            giving[run->taken[k]]--;
                        else
                            run->taken[kept++] = run->taken[k];
                    }
                    run->n_taken = kept;
                }
                offer(best, best->dead_pts + best->live_pts + best->wild_total - used_pts,
                      best->dead_cnt + best->live_cnt + best->n_wilds - 13 * n_runs, NULL,
                      best->n_wilds - forced - given, 0);
                if (best->done)
                    return;
            }
        }
        /* The next choice, non-decreasing place indexes (combinations_with_replacement). */
        int i = n_runs - 1;
        while (i >= 0 && choice[i] == n_places - 1)
            i--;
        if (i < 0)
            return;
        choice[i]++;
        for (int k = i + 1; k < n_runs; k++)
            choice[k] = choice[i];
    }
}
