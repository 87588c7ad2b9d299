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
from markupsafe import Markup, escape

from dungeonpress.errors import RenderError, display_path
from dungeonpress.views.quotes import typographic_html

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

# An aside (a chapter's summary "on one hand", a designer's note) is a blockquote that opens with `[!aside]`, as
# GitHub marks its alerts; worked examples are plain blockquotes. The two share a box shape but not a style, so a
# reader can tell "how it plays out" from "what to remember" at a glance (book.css: blockquote.aside).
_ASIDE_MARK = "[!aside]"


def _mark_asides(state) -> None:
    """Core rule: give a blockquote that opens with `[!aside]` the class "aside" and drop the mark."""
    tokens = state.tokens
    for index, token in enumerate(tokens[:-2]):
        if token.type != "blockquote_open" or tokens[index + 1].type != "paragraph_open":
            continue
        inline = tokens[index + 2]
        children = inline.children or []
        if inline.type != "inline" or not children or children[0].type != "text" \
                or not children[0].content.startswith(_ASIDE_MARK):
            continue
        token.attrSet("class", "aside")
        children[0].content = children[0].content[len(_ASIDE_MARK):].lstrip()
        if not children[0].content:  # the mark on a line of its own: drop its line break too
            children = children[1:]
            if children and children[0].type in ("softbreak", "hardbreak"):
                children = children[1:]
        inline.children = children
        inline.content = inline.content[len(_ASIDE_MARK):].lstrip()


_MD.core.ruler.push("dungeonpress_asides", _mark_asides)

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
    env.filters["alt"] = svg_with_alt
    return env


def render_template(templates_dir: Path, name: str, **context) -> str:
    """Render one template; template mistakes come back as RenderError `path:line: message`.

    Every quote in the text comes out typographic (views.quotes): table cells and generated words are
    printed as written, and prose and cells must read alike.
    """
    try:
        return typographic_html(environment(str(templates_dir)).get_template(name).render(**context))
    except jinja2.TemplateSyntaxError as exc:
        raise RenderError(f"{display_path(exc.filename or name)}:{exc.lineno}: {exc.message}") from None
    except jinja2.TemplateNotFound as exc:
        raise RenderError(f"template '{exc.name}' not found in {display_path(templates_dir)}") from None
    except jinja2.UndefinedError as exc:
        raise RenderError(f"{_template_location(exc, name)}: {exc.message}") from None


def template_source(templates_dir: Path, name: str) -> str:
    """The text of a file in the templates folder (a stylesheet copied into inline SVG), read by Jinja2's loader."""
    env = environment(str(templates_dir))
    try:
        return env.loader.get_source(env, name)[0]
    except jinja2.TemplateNotFound as exc:
        raise RenderError(f"template '{exc.name}' not found in {display_path(templates_dir)}") from None


def _template_location(exc: Exception, name: str) -> str:
    """The innermost template file and line of an error raised while rendering."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename.endswith(".j2"):
            return f"{display_path(frame.filename)}:{frame.lineno}"
    return name


def markdown_html(text: str) -> Markup:
    """Markdown prose to safe HTML (raw HTML in the source is shown as text, never passed through)."""
    return Markup(_MD.render(text or ""))


def svg_with_alt(svg: str, text: str) -> Markup:
    """Our own drawn <svg> with a <title> first inside it: a tagged PDF gives that figure this alternative text."""
    svg = str(svg)
    start = svg.find("<svg")
    end = svg.find(">", start)
    if start < 0 or end < 0 or svg[end - 1] == "/" or "<title>" in svg:  # a drawing that titles itself keeps its own
        return Markup(svg)
    return Markup(f"{svg[:end + 1]}<title>{escape(text)}</title>{svg[end + 1:]}")


def trusted(html: str) -> Markup:
    """HTML this module rendered before (a chapter kept as text between runs) as the safe markup it was."""
    return Markup(html)


def markdown_inline(text: str) -> Markup:
    """One line of Markdown (emphasis, links) without a wrapping paragraph."""
    return Markup(_MD.renderInline(text or ""))


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def chapter_directives(text: str) -> list:
    """(name, arg, heading) of every directive line in a chapter, in order; `heading` is the one it sits under."""
    return [(*match.groups(), heading) for match, heading, _ in _directive_lines(text)]


def text_round_directives(text: str) -> list[str]:
    """For every directive line of a chapter, in order, the prose its caption need not repeat: what lies between
    it and the heading above it, and the paragraph just below it."""
    return [told for _, _, told in _directive_lines(text)]


def _directive_lines(text: str):
    """(match, heading, prose told) for every directive line of a chapter, in order: the heading it sits under,
    and the prose lines between that heading and it (other directive lines left out) with the paragraph that
    follows it, joined. A caption that says what the next paragraph says is as much a stutter as one that says
    what the last did (the Navigation Check's note, then "Any No answer is a failed Navigation check")."""
    lines = text.splitlines()
    heading, since = None, []
    for index, line in enumerate(lines):
        match = DIRECTIVE_LINE.match(line.strip())
        if match:
            yield match, heading, " ".join(" ".join(since + _paragraph_at(lines, index + 1)).split())
        elif line.startswith("#"):
            heading, since = line.lstrip("#").strip(), []
        else:
            since.append(line)


def _paragraph_at(lines: list[str], start: int) -> list[str]:
    """The prose paragraph that begins at or after `start` (blank lines skipped), or none if a heading or a
    directive comes first."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    paragraph = []
    for line in lines[start:]:
        if not line.strip() or line.startswith("#") or DIRECTIVE_LINE.match(line.strip()):
            break
        paragraph.append(line)
    return paragraph


def render_chapter(templates_dir: Path, text: str, prefix: str, blocks: list, *, base: Path | None = None, roots=None,
                   where: str = "", **common) -> tuple[str, list]:
    """Markdown chapter → (HTML, headings) where headings are (level, text, id) for h1 and h2.

    The n-th directive line (`[[table room_type]]`, see `chapter_directives`) becomes `blocks[n]`,
    a (template, context) pair already resolved to a view, rendered here with `common` values; so a
    table is written once and shown anywhere. A block that fits on one page (`data-keep`) travels
    with the heading and short introduction just above it, so a heading is never left at the foot
    of a page while its table starts the next. Relative image paths resolve against `base` (the
    chapter's own folder); with `roots`, an image outside them, or one named by URL, is a
    RenderError naming the chapter file `where`.
    """
    lines, count = [], 0
    for line in text.splitlines():
        if DIRECTIVE_LINE.match(line.strip()):
            lines.extend(["", _PLACEHOLDER.format(count), ""])
            count += 1
        else:
            lines.append(line)
    if count != len(blocks):
        raise RenderError(f"chapter {prefix}: {count} directives but {len(blocks)} blocks (bug)")
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
    for number, block in enumerate(blocks):
        template, context = block
        html = render_template(templates_dir, template, **common, **context)
        tokens = _insert_block(tokens, _PLACEHOLDER.format(number), html)
    return Markup(_MD.renderer.render(_keep_examples(tokens), _MD.options, {})), headings


_KEEP_INTRO = 700  # characters of HTML between a heading and its table that may travel with it
_KEEP_HEADINGS = ("h2", "h3", "h4")


_EXAMPLE = re.compile(r"(worked )?examples?\b", re.IGNORECASE)
_KEEP_EXAMPLE = 2400  # characters of HTML: a worked example this short is read whole, on one page


def _keep_examples(tokens: list) -> list:
    """Wrap each short worked example (a section whose h3/h4 starts "Example") in `.keep`.

    Split over a page turn, an example's last steps end up alone on a near-empty page at the
    chapter's end; whole, it moves over together and its steps read in one view.
    """
    out, index = list(tokens), 0
    while index < len(out):
        token = out[index]
        if token.type == "heading_open" and token.tag in ("h3", "h4") and _EXAMPLE.match(out[index + 1].content):
            level = int(token.tag[1])
            # it runs to the next heading of its level or above, or to an aside (a chapter's closing summary is not
            # part of its example)
            end = next((j for j in range(index + 1, len(out))
                        if (out[j].type == "heading_open" and int(out[j].tag[1]) <= level)
                        or (out[j].type == "blockquote_open" and out[j].attrGet("class") == "aside")), len(out))
            html = _MD.renderer.render(out[index:end], _MD.options, {})
            if len(html) <= _KEEP_EXAMPLE and 'class="keep' not in html:
                out = out[:index] + [_raw('<div class="keep example">')] + out[index:end] + [_raw("</div>")] + out[end:]
                index = end + 2
                continue
        index += 1
    return out


def _raw(html: str) -> Token:
    token = Token("html_block", "", 0)
    token.content = html
    return token


# A lead-in paragraph (just above a table) long enough to end a page under its heading without stranding it, three
# lines or more at large print's 14 pt, where a line holds at most 68 characters: that theme lets it part from its table
# there (large-print.css: p.long-lead). The other themes keep every lead-in with its table.
_LONG_LEAD = 140  # characters of its text


def _mark_long_lead(tokens: list, at: int) -> None:
    """Class the paragraph just before the block at `at` `long-lead` when its text is _LONG_LEAD characters or more."""
    if at < 3 or tokens[at - 1].type != "paragraph_close" or tokens[at - 3].type != "paragraph_open":
        return
    text = "".join(child.content for child in tokens[at - 2].children or () if child.type in ("text", "code_inline"))
    if len(text) >= _LONG_LEAD:
        tokens[at - 3].attrSet("class", "long-lead")


def _insert_block(tokens: list, placeholder: str, html: str) -> list:
    """Replace the placeholder paragraph with the block; wrap it and its heading in `.keep` when it may travel."""
    at = next(i for i, t in enumerate(tokens) if t.type == "inline" and t.content == placeholder) - 1
    # paragraph_open, inline, paragraph_close → the block, then the newline the paragraph ended with
    tokens = tokens[:at] + [_raw(html), _raw("\n")] + tokens[at + 3:]
    _mark_long_lead(tokens, at)
    if "data-keep" not in html:
        return tokens
    start = next((i for i in range(at - 1, -1, -1)
                  if tokens[i].type == "heading_open" and tokens[i].tag in _KEEP_HEADINGS), None)
    if start is None:
        return tokens
    between = _MD.renderer.render(tokens[start:at], _MD.options, {})
    if len(between) > _KEEP_INTRO or "</table>" in between:
        return tokens
    return tokens[:start] + [_raw('<div class="keep">')] + tokens[start:at + 1] + [_raw("</div>")] + tokens[at + 1:]
