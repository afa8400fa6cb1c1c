"""Lighthouse on every chapter of the built site: fast on a phone, accessible, light (``make site-audit``).

Serves ``_build/html`` gzip-compressed on localhost (``tools/serve_site.py``,
as any static host serves it) and runs Lighthouse (``lighthouse@12.2.3``, its
default *mobile* profile: a Moto G Power-sized screen, simulated slow 4G and
a 4x slower CPU) three times on every page of ``_toc.yml``, with Debian's
Chromium.  A page passes when the **median** of its three runs has

* performance >= 90 and accessibility = 100,
* at most 600 kB transferred (``total-byte-weight``) on the first load,
* and no run requested something the reader has not asked for before the
  text: the search index, an icon font or icon script (Font Awesome), or an explorer view
  other than those shown (every image fetched must be an ``<img>`` of the page).

The npm packages are pinned in ``tools/site_audit/package.json`` and
``package-lock.json``; ``npm ci`` installs them the first time (the npm
registry must be reachable then).  A table of the medians goes to the
standard output and every run to ``_build/site-audit/``.  The scores are a
benchmark measure with a threshold: the median of three runs, so that one
noisy run does not decide.

    python tools/site_audit.py                 # every page, 3 runs each
    python tools/site_audit.py --runs 1 chapters/smooth chapters/intro
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "_ext"))
sys.path.insert(0, str(ROOT / "tools"))
from booktoc import toc_files  # noqa: E402
from serve_site import SiteServer  # noqa: E402

NPM_DIR = ROOT / "tools" / "site_audit"
LIGHTHOUSE = NPM_DIR / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROMIUM = os.environ.get("DPSENS_CHROMIUM", "/usr/bin/chromium")
CHROME_FLAGS = ("--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                "--disable-background-networking --disable-component-update --disable-sync")

#: The goals of the audit (issue 25).
MIN_PERFORMANCE = 90
MIN_ACCESSIBILITY = 100
MAX_TRANSFER_KB = 600
#: Requests that must not happen on the first load of a page.
UNASKED = re.compile(r"searchindex\.js|fontawesome|fa-(solid|regular|brands)-", re.I)


def install() -> None:
    """``npm ci`` the pinned Lighthouse and axe-core, unless they are installed already."""
    lock = NPM_DIR / "package-lock.json"
    stamp = NPM_DIR / "node_modules" / ".package-lock.json"
    if LIGHTHOUSE.exists() and stamp.exists() and stamp.stat().st_mtime >= lock.stat().st_mtime:
        return
    subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=NPM_DIR, check=True)


def lighthouse(url: str, out: Path) -> dict:
    """One Lighthouse run (mobile, performance and accessibility) of ``url``; the report as a dict."""
    env = dict(os.environ, CHROME_PATH=CHROMIUM)
    subprocess.run(["node", str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
                    "--only-categories=performance,accessibility", f"--chrome-flags={CHROME_FLAGS}"],
                   env=env, check=True, timeout=300)
    return json.loads(out.read_text(encoding="utf-8"))


def summary(report: dict, page_html: str) -> dict:
    """The numbers of one run, and the requests it should not have made."""
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    shown = set(re.findall(r'<img[^>]*\ssrc="([^"]+)"', page_html))
    unasked = [r["url"] for r in requests if UNASKED.search(r["url"])]
    base = report["finalDisplayedUrl"].rsplit("/", 1)[0] + "/"
    for r in requests:   # an image the page does not show in an <img>: an explorer view nobody asked for
        if r.get("resourceType") == "Image" and not r["url"].startswith("data:"):
            rel = r["url"][len(base):] if r["url"].startswith(base) else r["url"]
            if not any(rel == s or r["url"].endswith("/" + s.lstrip("./")) for s in shown) and \
                    not r["url"].endswith(("favicon.ico", "logo.png")):
                unasked.append(r["url"])
    return {
        "performance": round(100 * report["categories"]["performance"]["score"]),
        "accessibility": round(100 * report["categories"]["accessibility"]["score"]),
        "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "transfer_kb": audits["total-byte-weight"]["numericValue"] / 1000,
        "requests": len(requests),
        "unasked": unasked,
        "failed_a11y": sorted(k for k, a in audits.items()
                              if a.get("score") == 0 and k in _a11y_ids(report)),
    }


def _a11y_ids(report: dict) -> set:
    return {ref["id"] for ref in report["categories"]["accessibility"]["auditRefs"]}


def median_of(runs: list[dict]) -> dict:
    keys = ["performance", "accessibility", "fcp_s", "lcp_s", "tbt_ms", "cls", "transfer_kb", "requests"]
    out = {k: statistics.median(r[k] for r in runs) for k in keys}
    out["unasked"] = sorted({u for r in runs for u in r["unasked"]})
    out["failed_a11y"] = sorted({a for r in runs for a in r["failed_a11y"]})
    return out


def problems(page: str, m: dict, performance: str = "enforce") -> list[str]:
    bad = []
    if m["performance"] < MIN_PERFORMANCE and performance == "enforce":
        bad.append(f"{page}: performance {m['performance']:g} < {MIN_PERFORMANCE}")
    if m["accessibility"] < MIN_ACCESSIBILITY:
        bad.append(f"{page}: accessibility {m['accessibility']:g} < {MIN_ACCESSIBILITY} ({m['failed_a11y']})")
    if m["transfer_kb"] > MAX_TRANSFER_KB:
        bad.append(f"{page}: {m['transfer_kb']:.0f} kB transferred > {MAX_TRANSFER_KB} kB")
    bad += [f"{page}: requested before the reader asked: {u}" for u in m["unasked"]]
    return bad


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", help="pages as in _toc.yml (chapters/smooth); default every page")
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (the median counts)")
    parser.add_argument("--performance", choices=["enforce", "report"], default="enforce",
                        help="'report' prints the performance scores without failing on them: they are timed "
                             "measures, so CI (.ci/run) fails only on the load-independent ones (accessibility, "
                             "bytes transferred, unasked requests, 404s)")
    parser.add_argument("--site", default=str(ROOT / "_build" / "html"), help="the built site")
    parser.add_argument("--out", default=str(ROOT / "_build" / "site-audit"), help="where the reports go")
    args = parser.parse_args(argv)
    site = Path(args.site)
    if not (site / "index.html").exists():
        print(f"no built site at {site}: run `make book` first", file=sys.stderr)
        return 2
    install()
    pages = args.pages or toc_files(ROOT)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results, bad = {}, []
    with SiteServer(site) as server:
        for page in pages:
            html = (site / f"{page}.html").read_text(encoding="utf-8")
            runs = []
            for i in range(args.runs):
                report = lighthouse(server.url + f"{page}.html", out / f"{page.replace('/', '_')}-{i + 1}.json")
                runs.append(summary(report, html))
            results[page] = median_of(runs)
            results[page]["performance_runs"] = [r["performance"] for r in runs]
            m = results[page]
            print(f"{page:34s} perf {m['performance']:3g} {m['performance_runs']}  a11y {m['accessibility']:3g}  "
                  f"FCP {m['fcp_s']:4.1f} s  LCP {m['lcp_s']:4.1f} s  TBT {m['tbt_ms']:5.0f} ms  "
                  f"CLS {m['cls']:.3f}  {m['transfer_kb']:6.0f} kB  {m['requests']:g} requests", flush=True)
            bad += problems(page, m, args.performance)
        missing = list(server.missing)
    bad += [f"404: {p}" for p in sorted(set(missing))]
    (out / "summary.json").write_text(json.dumps(results, indent=1), encoding="utf-8")
    if bad:
        print("\nFAILED:\n  " + "\n  ".join(bad))
        return 1
    slow = [p for p, m in results.items() if m["performance"] < MIN_PERFORMANCE]
    if slow:
        print(f"\nperformance below {MIN_PERFORMANCE} (reported, not enforced): {', '.join(slow)}")
    print(f"\nall {len(pages)} pages: performance >= {MIN_PERFORMANCE} ({args.performance}), accessibility {MIN_ACCESSIBILITY}, "
          f"<= {MAX_TRANSFER_KB} kB, nothing unasked, no 404 (median of {args.runs} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
