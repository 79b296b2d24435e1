#!/usr/bin/env python3
"""Compare the pages two builds of the server render, for a refactor that must change no page.

    scripts/pagediff.py OLD_BINARY NEW_BINARY [--backend widerow|memory] [--out DIR]

Each binary in turn serves a fresh store loaded the same way (`seed --articles` on widerow, the
same API calls on both), and the same crawl runs against it: every page reachable by the links of
the home page, the public line, the course and the models pages (GET only, same origin, at most
--limit pages), anonymously and signed in. The bodies are normalised (IDs, times, durations,
tokens and random numbers become placeholders) and compared page by page. Exit status 0 when
every page compares equal, 1 otherwise, with the differing lines printed.

Build the old binary from the commit before the change (`git worktree add /tmp/old HEAD~N &&
go build -C /tmp/old -o /tmp/old.bin ./cmd/twissandra`). Needs only Python 3's standard library.
"""

import argparse
import difflib
import html
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

SECRET = "pagediff-secret-0123456789abcdef0123456789"
START = ["/", "/public", "/find", "/blog", "/learn", "/models", "/learn/glossary",
         "/learn/timeline", "/learn/departures"]
SKIP = re.compile(r"^/(logout|static/|metrics|debug/|api/)")

NORMALISE = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "<uuid>"),
    (re.compile(r'name="csrf_token" value="[^"]*"'), 'name="csrf_token" value="<csrf>"'),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?"), "<time>"),
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?( UTC)?"), "<time>"),
    (re.compile(r"\b\d{1,2}:\d\d(:\d\d)?(\.\d+)?\b"), "<clock>"),
    (re.compile(r"<time>\.\d+"), "<time>"),
    (re.compile(r"\b\d+(\.\d+)?\s?(ns|µs|us|ms|s|m|h)\b"), "<dur>"),
    (re.compile(r"\b\d+ (second|minute|hour|day)s? ago\b"), "<ago>"),
    (re.compile(r"\b[0-9a-f]{16,}\b"), "<hex>"),
    (re.compile(r"0x[0-9a-f]+"), "<bytes>"),
    (re.compile(r"-?\b\d{7,}\b"), "<n>"),
    (re.compile(r"\b\d{1,3}(,\d{3})+\b"), "<n>"),
]


def normalise(text):
    for pat, rep in NORMALISE:
        text = pat.sub(rep, text)
    return text


def norm_url(u):
    return normalise(u)


class Server:
    def __init__(self, binary, backend, port, work):
        self.binary, self.backend, self.port, self.work = binary, backend, port, work
        self.base = f"http://127.0.0.1:{port}"
        self.proc = None

    def __enter__(self):
        data = os.path.join(self.work, "data")
        args = [self.binary, "serve", "--addr", f"127.0.0.1:{self.port}", "--bcrypt-cost", "4",
                "--token-secret", SECRET, "--backend", self.backend]
        if self.backend == "widerow":
            subprocess.run([self.binary, "seed", "--articles", "--data-dir", data], check=True,
                           stdout=subprocess.DEVNULL)
            args += ["--data-dir", data]
        self.log = open(os.path.join(self.work, "server.log"), "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                urllib.request.urlopen(self.base + "/readyz", timeout=2)
                return self
            except (urllib.error.URLError, ConnectionError):
                if self.proc.poll() is not None:
                    raise SystemExit(f"{self.binary} exited: see {self.log.name}")
                time.sleep(0.1)
        raise SystemExit(f"{self.binary} did not become ready")

    def __exit__(self, *exc):
        self.proc.terminate()
        self.proc.wait(timeout=30)
        self.log.close()


def api(base, method, path, body=None, token=None):
    req = urllib.request.Request(base + "/api/v1" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            raw = r.read()
            return json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        return {"status": e.code}


def load(base):
    """The same users, follows and tweets on every run, after the seed."""
    tokens = {}
    for name in ["pagediff", "alice", "bob"]:
        api(base, "POST", "/users", {"username": name, "password": "pagediff-pw"})
        tokens[name] = api(base, "POST", "/sessions", {"username": name, "password": "pagediff-pw"})["token"]
    api(base, "PUT", "/users/pagediff/friends/alice", token=tokens["pagediff"])
    api(base, "PUT", "/users/pagediff/friends/jericevans", token=tokens["pagediff"])
    api(base, "PUT", "/users/alice/friends/pagediff", token=tokens["alice"])
    for i in range(3):
        api(base, "POST", "/tweets", {"body": f"alice's tweet {i}"}, token=tokens["alice"])
    api(base, "POST", "/tweets", {"body": "a tweet of pagediff"}, token=tokens["pagediff"])


def opener():
    jar = http.cookiejar.CookieJar()
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar),
                                       NoRedirect())


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *a, **k):
        return None


def fetch(op, base, path):
    try:
        with op.open(base + path, timeout=30) as r:
            return r.status, r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def sign_in(op, base):
    _, page = fetch(op, base, "/login")
    tok = re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)
    data = urllib.parse.urlencode({"csrf_token": tok, "next": "/", "username": "pagediff",
                                   "password": "pagediff-pw"}).encode()
    try:
        op.open(urllib.request.Request(base + "/login", data=data, method="POST"), timeout=30)
    except urllib.error.HTTPError as e:
        if e.code not in (302, 303):
            raise


LINK = re.compile(r'href="(/[^"#]*)')


def crawl(op, base, limit):
    seen, order, pages = set(), [], {}
    queue = list(START)
    while queue and len(order) < limit:
        path = html.unescape(queue.pop(0))
        key = norm_url(path)
        if key in seen or SKIP.match(path):
            continue
        seen.add(key)
        status, body = fetch(op, base, path)
        order.append(key)
        pages[key] = f"status {status}\n" + normalise(body).replace("><", ">\n<")
        if status == 200:
            for link in LINK.findall(body):
                if norm_url(html.unescape(link)) not in seen:
                    queue.append(link)
    return order, pages


def snapshot(binary, backend, port, limit):
    work = tempfile.mkdtemp(prefix="pagediff-")
    try:
        with Server(binary, backend, port, work) as srv:
            load(srv.base)
            anon = crawl(opener(), srv.base, limit)
            op = opener()
            sign_in(op, srv.base)
            signed = crawl(op, srv.base, limit)
        return {"anonymous": anon, "signed in": signed}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--backend", default="widerow", choices=["widerow", "memory"])
    ap.add_argument("--port", type=int, default=18123)
    ap.add_argument("--limit", type=int, default=400)
    ap.add_argument("--out", help="write each side's normalised pages here")
    a = ap.parse_args()
    old = snapshot(os.path.abspath(a.old), a.backend, a.port, a.limit)
    new = snapshot(os.path.abspath(a.new), a.backend, a.port, a.limit)
    differing = reordered = 0
    total = 0
    for who in old:
        (oorder, opages), (norder, npages) = old[who], new[who]
        if a.out:
            for side, pages in (("old", opages), ("new", npages)):
                d = os.path.join(a.out, side, who.replace(" ", "-"))
                os.makedirs(d, exist_ok=True)
                for k, v in pages.items():
                    with open(os.path.join(d, urllib.parse.quote(k, safe="") or "root"), "w") as f:
                        f.write(v)
        for k in sorted(set(opages) | set(npages)):
            total += 1
            o, n = opages.get(k), npages.get(k)
            if o == n:
                continue
            if o is not None and n is not None and sorted(o.splitlines()) == sorted(n.splitlines()):
                # The same lines in another order: rows keyed by random IDs (tokens, UUIDs)
                # sort differently on every run.
                reordered += 1
                continue
            differing += 1
            print(f"== {who} {k}: " + ("only old" if n is None else "only new" if o is None else "differs"))
            if o is not None and n is not None:
                for line in list(difflib.unified_diff(o.splitlines(), n.splitlines(), lineterm="", n=1))[2:40]:
                    print("   " + line)
    print(f"{total} pages compared ({a.backend}), {differing} differ, "
          f"{reordered} hold the same lines in another order (rows keyed by random IDs)")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
