"""Turn model objects into one HTML string (Jinja2 + markdown-it-py; the only import of either)."""

from __future__ import annotations

import re
import traceback
import urllib.parse
from functools import lru_cache
from pathlib import Path

import jinja2
from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup

from dungeonpress.errors import RenderError, display_path

# CommonMark with raw HTML off: a content pack can never smuggle <link>, <script> or
# <img src=file:…> into the page through its prose. Typographer gives curly quotes and dashes.
_MD = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable(
    ["table", "strikethrough", "replacements", "smartquotes"])

# Links a printed book may carry: the web, e-mail and anchors inside the document. Anything
# else (a relative `notes.md` would become a file:/// link holding the builder's own path) is
# printed as plain text.
_LINK_SCHEMES = ("http:", "https:", "mailto:")
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def link_allowed(href: str) -> bool:
    href = href.strip()
    return href.startswith("#") or href.lower().startswith(_LINK_SCHEMES)


def _seal_links(state) -> None:
    """Core rule: drop disallowed links (keeping their text); resolve relative images against env["base"].

    Images are read by the PDF fetcher, which refuses anything outside the packs and templates;
    a relative image path is resolved against the folder of the chapter it is written in, so a
    pack's own images render and `../` escapes still meet the fetcher.
    """
    env = state.env if isinstance(state.env, dict) else {}
    base, roots = env.get("base"), env.get("roots")
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        kept, dropping = [], False
        for token in block.children:
            if token.type == "link_open" and not link_allowed(token.attrGet("href") or ""):
                dropping = True
                continue
            if token.type == "link_close" and dropping:
                dropping = False
                continue
            if token.type == "image" and base is None:
                src = token.attrGet("src") or ""
                if (_SCHEME.match(src) and not src.startswith("data:")) or src.startswith(("/", "\\")):
                    token = Token("text", "", 0, content=token.content)  # no URL in prose: show the alt text
            elif token.type == "image":
                src = token.attrGet("src") or ""
                if src.startswith("data:"):
                    pass  # inline bytes: no file or network is named
                elif _SCHEME.match(src) or src.startswith(("/", "\\")):
                    env.setdefault("refused", []).append(f"image '{src}' is not a file of the pack")
                else:
                    path = (Path(base) / urllib.parse.unquote(src)).resolve()
                    if roots is not None and not any(path.is_relative_to(Path(r).resolve()) for r in roots):
                        env.setdefault("refused", []).append(f"image '{src}' is outside the pack")
                    token.attrSet("src", path.as_uri())
            kept.append(token)
        block.children = kept


_MD.core.ruler.push("dungeonpress_seal_links", _seal_links)

DIRECTIVE_LINE = re.compile(r"^\[\[\s*(\w+)(?:\s+([\w-]+))?\s*\]\]\s*$")
_PLACEHOLDER = "DPDIRECTIVE{}X"


@lru_cache(maxsize=4)
def environment(templates_dir: str) -> jinja2.Environment:
    """One Jinja2 environment per template folder: autoescape everywhere, undefined is an error."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=True,  # every template, whatever its file name
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["md"] = markdown_html
    env.filters["md_inline"] = markdown_inline
    return env


def render_template(templates_dir: Path, name: str, **context) -> str:
    """Render one template; template mistakes come back as RenderError `path:line: message`."""
    try:
        return environment(str(templates_dir)).get_template(name).render(**context)
    except jinja2.TemplateSyntaxError as exc:
        raise RenderError(f"{display_path(exc.filename or name)}:{exc.lineno}: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise RenderError(f"template '{exc.name}' not found in {display_path(templates_dir)}") from None
    except jinja2.UndefinedError as exc:
        raise RenderError(f"{_template_location(exc, name)}: {exc.message}") from None


def _template_location(exc: Exception, name: str) -> str:
    """The innermost template file and line of an error raised while rendering."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(".j2"):
            return f"{display_path(frame.filename)}:{frame.lineno}"
    return name


def markdown_html(text: str) -> Markup:
    """Markdown prose to safe HTML (raw HTML in the source is shown as text, never passed through)."""
    return Markup(_MD.render(text or ""))


def markdown_inline(text: str) -> Markup:
    """One line of Markdown (emphasis, links) without a wrapping paragraph."""
    return Markup(_MD.renderInline(text or ""))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def render_chapter(text: str, prefix: str, directive_html, base: Path | None = None, roots=None,
                   where: str = "") -> tuple[str, list]:
    """Markdown chapter → (HTML, headings) where headings are (level, text, id) for h1 and h2.

    A line holding only a directive such as `[[table room_type]]` becomes whatever
    `directive_html(name, arg, heading)` returns, so a table is written once and shown anywhere;
    `heading` is the text of the heading the directive sits under (so a table need not repeat it).
    Relative image paths resolve against `base` (the chapter's own folder); with `roots`, an image
    outside them, or one named by URL, is a RenderError naming the chapter file `where`.
    A directive and the heading plus short introduction just above it are wrapped together, so
    the heading is never left at the foot of a page while its table starts the next.
    """
    directives = []
    lines = []
    heading = None  # the heading a directive sits right under, if any
    for line in text.splitlines():
        match = DIRECTIVE_LINE.match(line.strip())
        if match:
            lines.extend(["", _PLACEHOLDER.format(len(directives)), ""])
            directives.append((*match.groups(), heading))
        else:
            lines.append(line)
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
    env = {"base": base, "roots": roots}
    tokens = _MD.parse("\n".join(lines), env)
    if env.get("refused"):
        raise RenderError(f"{where or 'chapter'}: " + "; ".join(env["refused"]) + " (refused)")
    headings, seen = [], set()
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        level = int(token.tag[1])
        title = tokens[index + 1].content
        anchor = f"{prefix}-{slug(title)}"
        while anchor in seen:
            anchor += "-x"
        seen.add(anchor)
        token.attrSet("id", anchor)
        if level <= 2:
            headings.append((level, Markup(_MD.renderInline(title)), anchor))
    html = _MD.renderer.render(tokens, _MD.options, {})
    for number, (name, arg, heading) in enumerate(directives):
        marker = f"<p>{_PLACEHOLDER.format(number)}</p>"
        block = directive_html(name, arg, heading)
        if "data-keep" in block:  # the block fits on one page: let its heading travel with it
            html = _keep_with_heading(html, marker)
        html = html.replace(marker, block)
    return Markup(html), headings


_KEEP_INTRO = 700  # characters of HTML between a heading and its table that may travel with it


def _keep_with_heading(html: str, marker: str) -> str:
    at = html.index(marker)
    start = max(html.rfind("<h2", 0, at), html.rfind("<h3", 0, at), html.rfind("<h4", 0, at))
    between = html[start:at]
    if start < 0 or at - start > _KEEP_INTRO or _PLACEHOLDER.split("{")[0] in between or "</table>" in between:
        return html
    end = at + len(marker)
    return f'{html[:start]}<div class="keep">{html[start:end]}</div>{html[end:]}'

