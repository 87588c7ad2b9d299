"""Server state (build folder listing, rolls, content check) → the preview page's HTML (escaped by hand)."""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

from dungeonpress.serve.jobs import LAYOUTS, PAPERS, THEMES, WHATS, Job, RollRequest

WHAT_LABELS = {"dungeon": "Dungeon", "pack": "Pack of 6", "character": "Character"}

CSS = """
:root { --ink:#1f1d1a; --muted:#6b655c; --line:#dcd6cb; --ground:#f5f2ec; --card:#fff; --accent:#8c2f1b;
        --bad:#a3261b; }
* { box-sizing:border-box; }
body { margin:0; font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--ink); background:var(--ground); }
header { display:flex; align-items:baseline; gap:1rem; padding:.8rem 1.5rem; background:var(--ink); color:#f5f2ec; }
header h1 { font-size:1.05rem; margin:0; font-weight:600; letter-spacing:.02em; }
header .watch { font-size:.85rem; color:#c9c2b6; margin-left:auto; }
header .pill { display:inline-block; padding:.05rem .5rem; border-radius:1rem; font-size:.8rem; margin-left:.4rem; }
.pill.ok { background:#2f6b3a; color:#fff; } .pill.bad { background:var(--bad); color:#fff; }
.pill.busy { background:#6b655c; color:#fff; }
main { max-width:1100px; margin:0 auto; padding:1.2rem 1.5rem 3rem; }
h2 { font-size:.8rem; text-transform:uppercase; letter-spacing:.08em; color:var(--muted); margin:1.6rem 0 .6rem; font-weight:600; }
h2 small { text-transform:none; letter-spacing:0; font-weight:400; }
form.roll { display:flex; flex-wrap:wrap; gap:.6rem .9rem; align-items:flex-end; background:var(--card);
            border:1px solid var(--line); border-radius:8px; padding:.9rem 1rem; }
form.roll label { display:flex; flex-direction:column; font-size:.75rem; color:var(--muted); gap:.2rem; }
form.roll input, form.roll select { font:inherit; font-size:.95rem; padding:.3rem .45rem; border:1px solid var(--line);
            border-radius:5px; background:#fff; color:var(--ink); min-width:5.5rem; height:2.1rem; }
form.roll input[name=seed] { width:7.5rem; } form.roll input[name=rooms] { width:4.5rem; min-width:0; }
form.roll button { font:inherit; font-weight:600; height:2.1rem; padding:0 1.3rem; border:0; border-radius:5px; background:var(--accent);
            color:#fff; cursor:pointer; }
form.roll button:hover { filter:brightness(1.1); }
.notice { margin:.8rem 0 0; padding:.6rem .9rem; border-radius:6px; background:#fff4dd; border:1px solid #e8cf93; }
.current { display:flex; gap:1.2rem; margin-top:1rem; background:var(--card); border:1px solid var(--line);
           border-radius:8px; padding:1rem; align-items:flex-start; }
.current img { max-width:240px; max-height:240px; border:1px solid var(--line); box-shadow:0 1px 3px rgba(0,0,0,.12); background:#fff; }
.current .what { font-weight:600; font-size:1.05rem; margin:0 0 .2rem; }
.current code.cmd { display:block; color:var(--muted); font-size:.8rem; margin-bottom:.6rem; }
.downloads { display:flex; flex-wrap:wrap; gap:.4rem; margin:.4rem 0; }
.downloads a { text-decoration:none; padding:.25rem .7rem; border-radius:5px; border:1px solid var(--accent);
               color:var(--accent); font-size:.85rem; }
.downloads a.pdf { background:var(--accent); color:#fff; }
.meta { color:var(--muted); font-size:.8rem; }
.errors { margin:.3rem 0 0; padding:.7rem .9rem .7rem 2rem; background:#fdf0ee; border:1px solid #eab8b0; border-radius:6px;
          color:var(--bad); font-size:.88rem; }
.errors code { color:var(--ink); font-weight:600; }
.spinner { display:inline-block; width:.9rem; height:.9rem; border:2px solid var(--line); border-top-color:var(--accent);
           border-radius:50%; animation:spin .8s linear infinite; vertical-align:-2px; margin-right:.4rem; }
@keyframes spin { to { transform:rotate(360deg); } }
.grid { display:grid; grid-template-columns:repeat(auto-fill,minmax(150px,1fr)); gap:1rem; }
.card { display:block; text-decoration:none; color:inherit; background:var(--card); border:1px solid var(--line);
        border-radius:8px; padding:.6rem; }
.card:hover { border-color:var(--accent); }
.card .thumb { height:170px; display:flex; align-items:center; justify-content:center; }
.card img { max-width:100%; max-height:170px; border:1px solid var(--line); background:#fff; }
.card .name { font-size:.78rem; margin-top:.45rem; overflow-wrap:anywhere; }
.card .size { font-size:.72rem; color:var(--muted); }
.empty { color:var(--muted); }
ul.history { list-style:none; padding:0; margin:0; font-size:.85rem; }
ul.history li { padding:.25rem 0; border-bottom:1px solid var(--line); }
ul.history a { color:var(--accent); margin-left:.5rem; font-size:.8rem; }
"""

SCRIPT = """
const gen = document.body.dataset.gen;
// The server sends its state number whenever a build starts or ends or content changes: reload on a new one.
const events = new EventSource("/events");
events.onmessage = (e) => { if (e.data !== gen) location.reload(); };
const form = document.querySelector("form.roll");
function fit() {
  const what = form.what.value;
  form.layout.disabled = what !== "dungeon";
  form.rooms.disabled = what === "character";
  for (const o of form.paper.options) o.disabled = o.value === "a5" && what !== "character";
  if (form.paper.selectedOptions[0].disabled) form.paper.value = "a4";
}
form.what.addEventListener("change", fit); fit();
"""


def render(*, generation: int, build_label: str, products: list, current: Job | None, history: list,
           check: Job | None, watched: list, notice: str = "", defaults: RollRequest | None = None) -> str:
    defaults = defaults or RollRequest()
    parts = [
        "<!doctype html><html lang=en><head><meta charset=utf-8>",
        "<meta name=viewport content='width=device-width,initial-scale=1'>",
        "<title>dungeonpress preview</title><style>", CSS, "</style></head>",
        f"<body data-gen='{generation}'>",
        "<header><h1>dungeonpress</h1>",
        f"<span class=watch>{'watching ' + escape(', '.join(watched)) if watched else 'not watching any folder'}"
        f"{_check_pill(check)}</span></header><main>",
    ]
    if check is not None and check.state == "failed" and (current is None or current.state != "failed"):
        parts.append("<h2>Content check</h2>" + _problems(check))
    parts.append("<h2>Roll</h2>")
    parts.append(_form(defaults))
    if notice:
        parts.append(f"<p class=notice role=alert>{escape(notice)}</p>")
    if current is not None:
        parts.append(_current(current))
    if history:
        items = "".join(_earlier(j) for j in history)
        parts.append(f"<h2>Earlier rolls</h2><ul class=history>{items}</ul>")
    parts.append(f"<h2>Build folder <small><code>{escape(build_label)}</code> · {len(products)} "
                 f"PDF{'s' if len(products) != 1 else ''}</small></h2>")
    if products:
        parts.append("<div class=grid>" + "".join(_card(rel, size) for rel, size in products) + "</div>")
    else:
        parts.append("<p class=empty>No PDFs yet: run <code>make</code> or roll one above.</p>")
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "".join(parts)


def _check_pill(check: Job | None) -> str:
    if check is None or not check.finished:
        return " <span class='pill busy'>checking</span>"
    if check.state == "done":
        return " <span class='pill ok'>content ok</span>"
    return f" <span class='pill bad'>{len(check.errors) or 1} problem{'s' if len(check.errors) > 1 else ''}</span>"


def _form(roll: RollRequest) -> str:
    def select(name, values, chosen, labels=None):
        options = "".join(f"<option value='{v}'{' selected' if v == chosen else ''}>{escape((labels or {}).get(v, v))}</option>"
                          for v in values)
        return f"<select name={name}>{options}</select>"

    papers = sorted({p for values in PAPERS.values() for p in values}, key=["a4", "letter", "a5"].index)
    return ("<form class=roll method=post action=/roll>"
            f"<label>Product {select('what', WHATS, roll.what, WHAT_LABELS)}</label>"
            f"<label>Seed <input name=seed inputmode=numeric value='{roll.seed}' placeholder=random></label>"
            f"<label>Rooms <input name=rooms type=number min=3 max=30 value='{roll.rooms}'></label>"
            f"<label>Layout {select('layout', LAYOUTS, roll.layout)}</label>"
            f"<label>Paper {select('paper', papers, roll.paper)}</label>"
            f"<label>Theme {select('theme', THEMES, roll.theme)}</label>"
            "<button type=submit>Roll</button></form>")


def _current(job: Job) -> str:
    head = f"<code class=cmd>{escape(job.label)}</code>"
    if not job.finished:
        return (f"<section class=current id=current data-state='{job.state}'><div><p class=what>"
                f"<span class=spinner></span>Building…</p>{head}"
                f"<p class=meta>{escape(job.reason)}; the page reloads when it is ready.</p></div></section>")
    if job.state == "failed":
        return (f"<section class=current id=current data-state=failed><div><p class=what>The build failed</p>{head}"
                f"{_problems(job)}</div></section>")
    pdfs = [rel for rel in job.outputs if rel.endswith(".pdf")]
    main_pdf = min(pdfs, key=len) if pdfs else None
    image = f"<img src='/thumb/{quote(main_pdf)}' alt='first page of {escape(_name(main_pdf))}'>" if main_pdf else ""
    links = "".join(f"<a class='{rel.rsplit('.', 1)[-1]}' href='/files/{quote(rel)}' download>{escape(_name(rel))}</a>"
                    for rel in sorted(job.outputs, key=lambda r: (not r.endswith('.pdf'), len(r), r)))
    return (f"<section class=current id=current data-state=done>{image}<div><p class=what>Ready</p>{head}"
            f"<div class=downloads>{links}</div>"
            f"<p class=meta>{escape(job.reason)} · built in {job.seconds:.1f} s</p></div></section>")


def _earlier(job: Job) -> str:
    pdfs = sorted((rel for rel in job.outputs if rel.endswith(".pdf")), key=len)
    link = f" <a href='/files/{quote(pdfs[0])}' download>{escape(_name(pdfs[0]))}</a>" if pdfs else ""
    return f"<li>{escape(job.label)} <span class=meta>· {escape(job.state)} · {escape(job.reason)}</span>{link}</li>"


def _problems(job: Job) -> str:
    lines = [f"<li><code>{escape(f)}:{n}</code>: {escape(msg)}</li>" for f, n, msg in job.errors]
    lines += [f"<li>{escape(msg)}</li>" for msg in job.messages]
    return f"<ul class=errors>{''.join(lines)}</ul>"


def _card(rel: str, size: int) -> str:
    return (f"<a class=card href='/files/{quote(rel)}'><div class=thumb>"
            f"<img loading=lazy src='/thumb/{quote(rel)}' alt='first page of {escape(rel)}'></div>"
            f"<div class=name>{_breakable(rel)}</div><div class=size>{_size(size)}</div></a>")


def _breakable(name: str) -> str:
    """Long file names wrap after a hyphen or slash rather than mid-word."""
    return "".join(escape(part) + ("<wbr>" if part in "-/" else "") for part in re.split(r"([-/])", name))


def _name(rel: str) -> str:
    return rel.rsplit("/", 1)[-1]


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"
