"""WeasyPrint's cascade (`weasyprint.css.StyleFor`) without the work whose result is never read.

WeasyPrint 70 applies the style sheets to every element in tree order. Two parts of that did work for nothing,
and together they were a fifth of laying out a pack of three delves:

- **An element whose style is shared.** When an element matches the same rules as one before it, under a parent
  with the same computed style, WeasyPrint gives it that element's computed style, but only after merging every
  declaration of every rule it matches into a cascaded style that nothing then reads. Here the merge is skipped
  for such an element (80% of a pack's 27,000 elements).
- **Pseudo-elements.** WeasyPrint's own sheet gives every element `::marker`, `::footnote-call`,
  `::footnote-marker`, `::note-call`, `::note-marker` and `::note-callback` rules, and the themes give every
  element `::before` and `::after` rules; WeasyPrint merged and computed a style for each of them, for every
  element (160,000 in that pack), though boxes ask only for the few that can exist (a list item's marker, a
  footnote's call: 440 there). Here a pseudo-element's cascaded style is merged once per distinct set of rules and
  shared (it is only read from then on), and its computed style is made when a box first asks for it.

Computing a style later changes nothing it computes: a `ComputedStyle` computes each value when it is first read,
from the parent's style and the cascaded declarations, which are the same whenever that is. The one thing computed
at once, a pseudo-element's `anchor` (collected for links), still is, for any pseudo-element whose rules set one.
The bytes of every product in every theme are those of WeasyPrint's own cascade (tests/test_cascade.py).

The rest is WeasyPrint 70.0's `StyleFor.__init__`, in its order; another version keeps its own cascade.
"""

from __future__ import annotations

from math import inf

FOR_VERSION = "70.0"  # the WeasyPrint whose StyleFor.__init__ this follows, step for step
_css = None  # weasyprint.css, handed in by dungeonpress.pdf (the one module that imports WeasyPrint)


def install(version: str, css) -> bool:
    """Give `css.StyleFor` (weasyprint.css) this cascade; False, and WeasyPrint's own, under another version."""
    global _css
    style_for = css.StyleFor
    if version != FOR_VERSION or getattr(style_for, "cascade_kept_lazy", False):
        return False
    _css = css
    asked = style_for.__call__
    style_for.weasyprints_own = (style_for.__init__, asked)  # kept for comparing (tests/test_cascade.py)
    style_for.__init__ = _apply_style_sheets
    style_for.__call__ = lambda self, element, pseudo_type=None: asked(self, *_made(self, element, pseudo_type))
    style_for.cascade_kept_lazy = True
    return True


def _merge(style: dict, declarations, origin: str, layer_order, specificity) -> None:
    """Add a rule's declarations to a cascaded style, each where it weighs at least as much (a later rule wins ties)."""
    precedence = _css.declaration_precedence
    for name, values, importance in declarations:
        weight = (precedence(origin, importance), layer_order, specificity)
        old_weight = style.get(name, (None, None))[1]
        if old_weight is None or old_weight <= weight:
            style[name] = values, weight


def _apply_style_sheets(self, html, sheets, presentational_hints, font_config, target_collector):
    """`StyleFor.__init__`: the computed style of every element; pseudo-elements' made when asked (`_made`)."""
    self._cascaded_styles = cascaded_styles = {}
    self._computed_styles = computed_styles = {}
    self.initial_page_sizes = {'box': None, 'area': None}
    self._sheets = sheets
    self.font_config = font_config
    self.pseudo_pending = pending = {}  # (element, pseudo type) -> its cascaded style, until a box asks for it
    self.pseudo_context = (html.etree_element, html.base_url)

    _css.PROGRESS_LOGGER.info('Step 3 - Applying CSS')
    layer_order = inf
    elements_declarations = {}
    for specificity, element, declarations, base_url in _css.find_style_attributes(
            html.etree_element, presentational_hints, html.base_url):
        elements_declarations[element] = tuple(declarations)
        _merge(cascaded_styles.setdefault((element, None), {}), _css.preprocess_declarations(base_url, declarations),
               'author', layer_order, specificity)

    computed_cache = {}
    pseudo_cascades = {}  # a pseudo-element's matched rules -> the cascaded style they make, shared and only read
    for element in html.wrapper_element.iter_subtree():
        etree_element = element.etree_element
        parent = element.parent.etree_element if element.parent else None
        parent_id = id(computed_styles[parent, None]) if element.parent else None
        selectors_keys, own, pseudo = [], [], {}
        for sheet, origin, sheet_specificity in sheets:
            for selector in sheet.matcher.match(element):
                specificity, _order, pseudo_type, (declarations, layer) = selector
                layer_order = inf if layer is None else sheet.layers.index(layer)
                selectors_keys.append((sheet, specificity, id(declarations), layer_order))
                rule = (declarations, origin, layer_order, sheet_specificity or specificity)
                (own if pseudo_type is None else pseudo.setdefault(pseudo_type, [])).append(rule)

        key = (parent_id, elements_declarations.get(etree_element), tuple(selectors_keys))
        if key in computed_cache:  # an equivalent computed style exists: share it, merge nothing
            computed_styles[etree_element, None] = computed_cache[key]
        else:
            style = cascaded_styles.setdefault((etree_element, None), {})
            for rule in own:
                _merge(style, *rule)
            self.set_computed_styles(etree_element, root=html.etree_element, parent=parent,
                                     base_url=html.base_url, target_collector=target_collector)
            computed_cache[key] = computed_styles[etree_element, None]

        for pseudo_type, rules in pseudo.items():
            rules_key = (pseudo_type, tuple((id(declarations), *rest) for declarations, *rest in rules))
            if rules_key not in pseudo_cascades:
                pseudo_cascades[rules_key] = {}
                for rule in rules:
                    _merge(pseudo_cascades[rules_key], *rule)
            cascaded = pseudo_cascades[rules_key]
            if 'anchor' in cascaded:  # computed now, as WeasyPrint does, so its anchor is collected in tree order
                cascaded_styles[etree_element, pseudo_type] = cascaded
                self.set_computed_styles(etree_element, pseudo_type=pseudo_type, root=html.etree_element,
                                         parent=etree_element, base_url=html.base_url,
                                         target_collector=target_collector)
            else:
                pending[etree_element, pseudo_type] = cascaded

    # WeasyPrint keeps the dictionary (pages' margin boxes add theirs later), not what is in it.
    self._cascaded_styles.clear()


def _made(self, element, pseudo_type) -> tuple:
    """Make a pseudo-element's computed style the first time a box asks for it, as `set_computed_styles` would have."""
    key = (element, pseudo_type)
    if pseudo_type and key in self.pseudo_pending:
        root, base_url = self.pseudo_context
        self._computed_styles[key] = _css.ComputedStyle(
            self._computed_styles[element, None], self.pseudo_pending.pop(key), pseudo_type,
            self._computed_styles[root, None], base_url, self.font_config, self.initial_page_sizes)
    return key
