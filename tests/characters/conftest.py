"""Fixtures of the builder tests (test_builder*.py, test_characters_api.py, test_history*.py,
test_homebrew*.py, test_permissions_characters.py). Nothing autouse: other features' tests
in this folder are not affected."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.factories import make_campaign, make_user


@dataclass
class Table:
    """One campaign: its GM, two players (``player`` owns the characters, ``other`` is a stranger
    to them but a member), and an outsider who belongs to no campaign."""

    campaign: object
    gm: object
    player: object
    other: object
    outsider: object


def make_table(ruleset: str, *, settings=None) -> Table:
    gm, player, other, outsider = make_user(), make_user(), make_user(), make_user()
    campaign = make_campaign(
        gm=gm, ruleset=ruleset, players=[player, other], settings=settings, name=f"{ruleset.title()} table"
    )
    return Table(campaign, gm, player, other, outsider)


@pytest.fixture
def table_factory(db):
    return make_table


@pytest.fixture
def login(client):
    """``login(user)`` → the test client signed in as ``user``."""

    def _login(user):
        client.force_login(user)
        return client

    return _login


# ------------------------------------------------------------------ reading HTML like a browser

from html.parser import HTMLParser  # noqa: E402

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def iter(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.iter()

    def find_all(self, tag=None, **attrs):
        out = []
        for n in self.iter():
            if tag and n.tag != tag:
                continue
            if all(
                (n.attrs.get(k.rstrip("_")) or "") == v if v is not True else k.rstrip("_") in n.attrs
                for k, v in attrs.items()
            ):
                out.append(n)
        return out

    def by_id(self, ident):
        return next((n for n in self.iter() if n.attrs.get("id") == ident), None)

    def has_class(self, name) -> bool:
        return name in (self.attrs.get("class") or "").split()

    def ancestors(self):
        n = self.parent
        while n is not None:
            yield n
            n = n.parent


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.cur = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, [(k, v if v is not None else "") for k, v in attrs], self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, [(k, v if v is not None else "") for k, v in attrs], self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not None and n.tag != tag:
            n = n.parent
        if n is not None and n.parent is not None:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse_html(content) -> Node:
    if isinstance(content, bytes):
        content = content.decode()
    b = _Builder()
    b.feed(content)
    return b.root


def form_fields(root: Node) -> list[tuple[str, str]]:
    """What a browser would post for the controls under ``root`` (no button pressed)."""
    out = []
    for n in root.iter():
        name = n.attrs.get("name")
        if (
            not name
            or "disabled" in n.attrs
            or any("disabled" in a.attrs and a.tag == "fieldset" for a in n.ancestors())
        ):
            continue
        if n.tag == "input":
            kind = n.attrs.get("type", "text")
            if kind in ("submit", "button", "file", "image", "reset"):
                continue
            if kind in ("checkbox", "radio") and "checked" not in n.attrs:
                continue
            out.append((name, n.attrs.get("value", "on" if kind in ("checkbox", "radio") else "")))
        elif n.tag == "select":
            options = n.find_all("option")
            chosen = [o for o in options if "selected" in o.attrs] or options[:1]
            for o in chosen:
                out.append((name, o.attrs.get("value", o.text)))
        elif n.tag == "textarea":
            out.append((name, n.text))
    return out


class BuilderSession:
    """Drives the builder like a browser with htmx: every change posts the whole form and the
    response's sections replace the form's fields (the panels come out of band)."""

    def __init__(self, client, url):
        self.client, self.url = client, url
        page = client.get(url)
        assert page.status_code == 200, page.status_code
        self.root = parse_html(page.content)
        form = self.root.by_id("builder-form")
        assert form is not None
        self.fields = form_fields(form)
        self.last = page

    # -- editing the fields
    def set(self, name, value):
        self.fields = [(k, v) for k, v in self.fields if k != name] + [(name, str(value))]
        return self

    def check(self, name, value):
        if (name, value) not in self.fields:
            self.fields.append((name, value))
        return self

    def uncheck(self, name, value):
        self.fields = [(k, v) for k, v in self.fields if (k, v) != (name, value)]
        return self

    def get(self, name):
        return [v for k, v in self.fields if k == name]

    def data(self, extra=()):
        data: dict[str, list[str]] = {}
        for k, v in list(self.fields) + list(extra):
            data.setdefault(k, []).append(v)
        return data

    # -- requests
    def change(self, *extra, htmx=True):
        """A change event (or a pressed button given as (name, value) pairs): the htmx post."""
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = self.client.post(self.url, self.data(extra), **headers)
        assert response.status_code == 200, (response.status_code, response.content[:2000])
        assert (
            b"&lt;option" not in response.content and b"&lt;li" not in response.content
        )  # no double escaping
        self.last = response
        self.root = parse_html(response.content)
        sections = self.root.by_id("builder-sections") if htmx else self.root.by_id("builder-form")
        keep = [(k, v) for k, v in self.fields if k in ("_version", "csrfmiddlewaretoken")] if htmx else []
        # The version the answer was drawn from comes with it (out of band, as in the browser).
        actions = self.root.by_id("builder-actions") if htmx else None
        drawn = [(k, v) for k, v in form_fields(actions) if k == "_version"] if actions is not None else []
        if drawn:
            keep = [(k, v) for k, v in keep if k != "_version"] + drawn
        self.fields = keep + form_fields(sections)
        return response

    def press(self, name, value="1"):
        """A plain (non-htmx) submit with a button: save, submit."""
        return self.client.post(self.url, self.data([(name, value)]))

    # -- reading the panels
    def figure(self, what, currency) -> int:
        node = next(iter(self.root.find_all(**{"data-testid": f"{what}-{currency}"})), None)
        assert node is not None, f"no {what}-{currency} in the response"
        return int(node.text.strip())

    def issues_beside(self, dom_id) -> list[str]:
        """Codes of the issues shown beside the control ``dom_id`` (via its aria-describedby)."""
        control = self.root.by_id(dom_id)
        assert control is not None, dom_id
        described = (control.attrs.get("aria-describedby") or "").split()
        codes = []
        for ident in described:
            node = self.root.by_id(ident)
            if node is not None:
                codes += [
                    li.attrs.get("data-code") for li in node.find_all("li") if li.attrs.get("data-code")
                ]
        return codes

    def summary_codes(self) -> list[str]:
        box = self.root.by_id("builder-errors")
        return [li.attrs.get("data-code") for li in box.find_all("li")] if box else []

    def submit_disabled(self) -> bool:
        button = next((b for b in self.root.find_all("button", name="_submit")), None)
        assert button is not None
        return "disabled" in button.attrs
