"""Server state (build folder, rolls, content check, product options) → the preview page and a PDF's page view (HTML escaped by hand)."""

from __future__ import annotations

import re
from html import escape
from urllib.parse import quote

from dungeonpress.serve.jobs import Job
from dungeonpress.serve.rolls import THEMES, RollRequest


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
form.roll input[name=seed] { width:7.5rem; } form.roll input[type=number] { width:6rem; }
form.roll button { font:inherit; font-weight:600; height:2.1rem; padding:0 1.3rem; border:0; border-radius:5px; background:var(--accent);
            color:#fff; cursor:pointer; }
form.roll button:hover { filter:brightness(1.1); }
.notice { margin:.8rem 0 0; padding:.6rem .9rem; border-radius:6px; background:#fff4dd; border:1px solid #e8cf93; }
form.roll fieldset { display:contents; } form.roll fieldset[hidden] { display:none; }
form.roll label.switch { flex-direction:row; align-items:center; gap:.35rem; height:2.1rem; }
form.roll label.switch input { min-width:0; height:auto; }
.current { margin-top:1rem; background:var(--card); border:1px solid var(--line); border-radius:8px; padding:1rem; }
.actions { display:flex; flex-wrap:wrap; gap:.5rem; margin:.5rem 0; }
.actions a { text-decoration:none; font-weight:600; padding:.3rem .9rem; border-radius:5px; background:var(--accent); color:#fff; }
.actions a.share { background:none; color:var(--accent); border:1px solid var(--accent); font-weight:400; }
.doc h3 { font-size:.95rem; margin:1.2rem 0 .5rem; font-weight:600; }
.doc h3 a { font-weight:400; font-size:.85rem; color:var(--accent); margin-left:.5rem; }
.pages { display:flex; flex-direction:column; align-items:center; gap:1rem; }
.pages a { display:block; max-width:100%; }
.pages img { display:block; max-width:100%; height:auto; min-height:8rem; border:1px solid var(--line);
             box-shadow:0 1px 3px rgba(0,0,0,.12); background:#fff; }
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
const form = document.querySelector("form.roll");
// The server sends its state number whenever a build starts or ends or content changes: reload on a
// new one, unless the form is being filled in (a reload would lose it) or has just been sent.
let editing = false;
const events = new EventSource("/events");
events.onmessage = (e) => { if (e.data !== gen && !editing) location.reload(); };
// Leaving the page (a link, a typed URL): its own reload must not cancel the way out.
addEventListener("beforeunload", () => { editing = true; events.close(); });
if (form) form.addEventListener("input", () => { editing = true; });
// Only the chosen product's options are shown and sent (a disabled fieldset's fields are not submitted).
function fit() {
  for (const set of form.querySelectorAll("fieldset[data-product]")) {
    const mine = set.dataset.product === form.product.value;
    set.hidden = !mine; set.disabled = !mine;
  }
}
if (form) { form.product.addEventListener("change", fit); fit(); }
"""


def render(*, generation: int, build_label: str, products: list, current: Job | None, history: list,
           check: Job | None, watched: list, catalog: dict, notice: str = "", defaults: RollRequest | None = None,
           pages: dict | None = None, kept: list | None = None, book: Job | None = None) -> str:
    """The whole page: header, roll form, the current roll (every page of its PDFs), earlier rolls, the rolls
    kept in the build folder, the build folder's own PDFs."""
    defaults = defaults or RollRequest()
    parts = [
        _head("dungeonpress preview"),
        f"<body data-gen='{generation}'>",
        "<header><h1>dungeonpress</h1>",
        f"<span class=watch>{'watching ' + escape(', '.join(watched)) if watched else 'not watching any folder'}"
        f"{_check_pill(check)}</span></header><main>",
    ]
    if check is not None and check.state == "failed" and (current is None or current.state != "failed"):
        parts.append("<h2>Content check</h2>" + _problems(check))
    parts.append("<h2>Roll</h2>")
    parts.append(_form(defaults, catalog))
    if notice:
        parts.append(f"<p class=notice role=alert>{escape(notice)}</p>")
    if current is not None:
        parts.append(_current(current, pages or {}))
    parts.append(_book(book))
    if history:
        items = "".join(_earlier(j) for j in history)
        parts.append(f"<h2>Earlier rolls</h2><ul class=history>{items}</ul>")
    if kept:
        items = "".join(f"<li>{escape(name)}" + "".join(f" <a href='/view/{quote(rel)}'>{escape(_name(rel))}</a>"
                                                        for rel in pdfs) + "</li>" for name, pdfs in kept)
        parts.append(f"<h2>Kept rolls <small><code>{escape(build_label)}rolls/</code></small></h2>"
                     f"<ul class='history kept'>{items}</ul>")
    parts.append(f"<h2>Build folder <small><code>{escape(build_label)}</code> · {len(products)} "
                 f"PDF{'s' if len(products) != 1 else ''}</small></h2>")
    if products:
        parts.append("<div class=grid>" + "".join(_card(rel, size) for rel, size in products) + "</div>")
    else:
        parts.append("<p class=empty>No PDFs yet: run <code>make</code> or roll one above.</p>")
    parts.append(f"</main><script>{SCRIPT}</script></body></html>")
    return "".join(parts)


def render_document(rel: str, count: int) -> str:
    """One PDF of the build folder, every page at a readable size, with a link to the file itself."""
    return "".join([
        _head(f"{_name(rel)} · dungeonpress preview"),
        "<body><header><h1><a href='/' style='color:inherit'>dungeonpress</a></h1></header><main>",
        _document(rel, count), "</main></body></html>"])


def _head(title: str) -> str:
    return ("<!doctype html><html lang=en><head><meta charset=utf-8>"
            "<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>{escape(title)}</title><style>{CSS}</style></head>")


def _document(rel: str, count: int) -> str:
    """A PDF's name, page count and link, then each page as an image (loaded as it scrolls into view)."""
    name = escape(_name(rel))
    if count == 0:
        return f"<section class=doc><h3>{name}<a href='/files/{quote(rel)}'>open the PDF</a></h3></section>"
    # Each page at its rendered size (pictures.PAGE_HEIGHT px tall) or the column's width; a click opens it whole.
    images = "".join(f"<a href='/page/{quote(rel)}?n={n}'><img loading=lazy src='/page/{quote(rel)}?n={n}' "
                     f"alt='page {n} of {name}'></a>" for n in range(1, count + 1))
    return (f"<section class=doc><h3>{name} · {count} page{'s' if count != 1 else ''}"
            f"<a href='/files/{quote(rel)}'>open the PDF</a></h3><div class=pages>{images}</div></section>")


def _check_pill(check: Job | None) -> str:
    if check is None or not check.finished:
        return " <span class='pill busy'>checking</span>"
    if check.state == "done":
        return " <span class='pill ok'>content ok</span>"
    return f" <span class='pill bad'>{len(check.errors) or 1} problem{'s' if len(check.errors) > 1 else ''}</span>"


def _select(name: str, values, chosen, blank: str | None = None) -> str:
    options = f"<option value=''>{escape(blank)}</option>" if blank is not None else ""
    options += "".join(f"<option value='{escape(str(v))}'{' selected' if str(v) == chosen else ''}>{escape(str(v))}</option>"
                       for v in values)
    return f"<select name='{escape(name)}'>{options}</select>"


def _form(roll: RollRequest, catalog: dict) -> str:
    """Product, seed, that product's options (every seeded command's are in the page, one shown), theme."""
    given = {flag: value for flag, value in roll.options}
    products = "".join(f"<option value='{escape(name)}'{' selected' if name == roll.product else ''}>{escape(name)}</option>"
                       for name in catalog)
    sets = []
    for name, product in catalog.items():
        mine = name == roll.product
        fields = []
        for choice in product.choices:
            key, value = choice.flag[2:], (given.get(choice.flag, "") if mine else "")
            title = escape(choice.help)
            if choice.switch:
                checked = " checked" if mine and choice.flag in given else ""
                fields.append(f"<label class=switch title='{title}'><input type=checkbox name='{escape(key)}' "
                              f"value=on{checked}>{escape(key)}</label>")
            elif choice.choices:
                fields.append(f"<label title='{title}'>{escape(key)} {_select(key, choice.choices, value, 'default')}</label>")
            else:
                bounds = "".join(f" {attr}={bound}" for attr, bound in (("min", choice.low), ("max", choice.high))
                                 if bound is not None)
                fields.append(f"<label title='{title}'>{escape(key)} <input name='{escape(key)}' type=number{bounds} "
                              f"value='{escape(value or '')}' placeholder=default></label>")
        hidden = "" if mine else " hidden disabled"
        sets.append(f"<fieldset data-product='{escape(name)}'{hidden}>{''.join(fields)}</fieldset>")
    return ("<form class=roll method=get action=/roll>"
            f"<label>product <select name=product>{products}</select></label>"
            f"<label>seed <input name=seed inputmode=numeric value='{roll.seed}' placeholder=random></label>"
            f"{''.join(sets)}"
            f"<label>theme {_select('theme', THEMES, roll.theme)}</label>"
            "<button type=submit>Roll</button></form>")


def _current(job: Job, pages: dict) -> str:
    head = f"<code class=cmd>{escape(job.label)}</code>"
    actions = ""
    if job.roll is not None:
        actions = (f"<div class=actions><a class=reroll href='/roll?{escape(job.roll.reroll())}'>Reroll</a>"
                   f"<a class=share href='/roll?{escape(job.roll.query())}'>Link to this roll</a></div>")
    if not job.finished:
        return (f"<section class=current id=current data-state='{job.state}'><p class=what>"
                f"<span class=spinner></span>Building…</p>{head}"
                f"<p class=meta>{escape(job.reason)}; the page reloads when it is ready.</p>{actions}</section>")
    if job.state == "failed":
        return (f"<section class=current id=current data-state=failed><p class=what>The build failed</p>{head}"
                f"{_problems(job)}{actions}</section>")
    links = "".join(f"<a class='{rel.rsplit('.', 1)[-1]}' href='/files/{quote(rel)}' download>{escape(_name(rel))}</a>"
                    for rel in sorted(job.outputs, key=lambda r: (not r.endswith('.pdf'), len(r), r)))
    documents = "".join(_document(rel, count) for rel, count in sorted(pages.items(), key=lambda p: (len(p[0]), p[0])))
    return (f"<section class=current id=current data-state=done><p class=what>Ready</p>{head}"
            f"{actions}<div class=downloads>{links}</div>"
            f"<p class=meta>{escape(job.reason)} · built in {job.seconds:.1f} s</p>{documents}</section>")


def _book(job: Job | None) -> str:
    """The rulebook: a button to build it into the build folder (again: only the chapters an edit changed)."""
    form = ("<form class=book method=post action=/book><button type=submit>"
            f"{'Build the rulebook' if job is None else 'Build it again'}</button></form>")
    if job is None:
        state = "<p class=meta>Built from the build folder's kept parts: after an edit only its chapter is laid out.</p>"
    elif not job.finished:
        state = f"<p class=what><span class=spinner></span>Building…</p><p class=meta>{escape(job.reason)}</p>"
    elif job.state == "failed":
        state = "<p class=what>The rulebook failed</p>" + _problems(job)
    else:
        links = "".join(f" <a href='/view/{quote(rel)}'>{escape(_name(rel))}</a>" for rel in job.outputs)
        state = f"<p class=meta>{escape(job.reason)} · built in {job.seconds:.1f} s ·{links}</p>"
    return f"<section class=book id=book><h2>Rulebook</h2>{form}{state}</section>"


def _earlier(job: Job) -> str:
    link = f" <a href='/roll?{escape(job.roll.query())}'>show</a>" if job.roll is not None else ""
    return f"<li>{escape(job.label)} <span class=meta>· {escape(job.state)} · {escape(job.reason)}</span>{link}</li>"


def _problems(job: Job) -> str:
    lines = [f"<li><code>{escape(f)}:{n}</code>: {escape(msg)}</li>" for f, n, msg in job.errors]
    lines += [f"<li>{escape(msg)}</li>" for msg in job.messages]
    return f"<ul class=errors>{''.join(lines)}</ul>"


def _card(rel: str, size: int) -> str:
    return (f"<a class=card href='/view/{quote(rel)}'><div class=thumb>"
            f"<img loading=lazy src='/thumb/{quote(rel)}' alt='first page of {escape(rel)}'></div>"
            f"<div class=name>{_breakable(rel)}</div><div class=size>{_size(size)}</div></a>")


def _breakable(name: str) -> str:
    """Long file names wrap after a hyphen or slash rather than mid-word."""
    return "".join(escape(part) + ("<wbr>" if part in "-/" else "") for part in re.split(r"([-/])", name))


def _name(rel: str) -> str:
    return rel.rsplit("/", 1)[-1]


def _size(size: int) -> str:
    return f"{size / 1024:.0f} KB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"
