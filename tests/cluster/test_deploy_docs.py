"""docs/deploy.md works as written: its nginx configuration passes ``nginx -t`` on Debian 12's nginx
(1.22.1, which has no ``http2 on;``), with a self-signed certificate in place of Let's Encrypt's
(issue 31, item 8).  Skipped where nginx or openssl is not installed (``.ci/run`` installs nginx)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
CERTIFICATE = "/etc/letsencrypt/live/games.example.org/fullchain.pem"
KEY = "/etc/letsencrypt/live/games.example.org/privkey.pem"


def program(name: str) -> str:
    found = shutil.which(name) or next((str(p) for p in (Path("/usr/sbin") / name,) if p.exists()), None)
    if found is None:
        pytest.skip(f"{name} is not installed (apt-get install {name})")
    return found


def nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.DOTALL)
    assert len(blocks) == 1, "docs/deploy.md has one nginx configuration"
    return str(blocks[0])



def write_nginx_conf(folder: Path, site: str, *, as_root: bool = False) -> None:
    """``folder/nginx.conf``: ``site`` in an http block whose pid, logs and temporary files stay in ``folder``
    (``as_root``: the worker processes keep root's user, so they can reach that folder)."""
    (folder / "logs").mkdir()
    user = "user root;" if as_root else ""
    (folder / "nginx.conf").write_text(f"""
{user}
pid {folder}/nginx.pid;
error_log {folder}/logs/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{site}
}}
""")

def test_the_documented_nginx_configuration_passes_nginx_t(tmp_path: Path) -> None:
    nginx, openssl = program("nginx"), program("openssl")
    block = nginx_block()
    assert CERTIFICATE in block and KEY in block
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=games.example.org", "-keyout", str(tmp_path / "key.pem"), "-out", str(tmp_path / "cert.pem")],
                   check=True, capture_output=True)
    site = block.replace(CERTIFICATE, str(tmp_path / "cert.pem")).replace(KEY, str(tmp_path / "key.pem"))
    write_nginx_conf(tmp_path, site)
    checked = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "logs" / "error.log"),
                              "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr
    version = subprocess.run([nginx, "-v"], capture_output=True, text=True).stderr
    numbers = tuple(int(n) for n in re.findall(r"nginx/(\d+)\.(\d+)\.(\d+)", version)[0])
    if numbers < (1, 25, 1):  # the doc's reason for `listen … http2`: this nginx refuses `http2 on;`
        (tmp_path / "nginx.conf").write_text((tmp_path / "nginx.conf").read_text().replace(
            "listen 443 ssl http2;", "listen 443 ssl;\n    http2 on;"))
        refused = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "logs" / "error.log"),
                                  "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True)
        assert refused.returncode != 0 and 'unknown directive "http2"' in refused.stderr, refused.stderr
