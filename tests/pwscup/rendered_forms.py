"""Post a form as the browser would: every field the rendered page holds (hidden inputs,
selects, the text of closed ``<details>`` boxes' textareas), with only the values a person
types or picks changed. A test that posts a dictionary of the fields it meant misses what
the page itself adds (a textarea rendered holding ``null`` was one)."""

from html.parser import HTMLParser

from django.core.files.uploadedfile import SimpleUploadedFile

UNSENT_INPUTS = {"submit", "button", "image", "reset"}


class FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: dict | None = None
        self._option: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._form = {"attrs": attrs, "fields": []}
            self.forms.append(self._form)
            return
        if self._form is None or "disabled" in attrs:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = (attrs.get("type") or "text").lower()
            if kind in UNSENT_INPUTS:
                return
            self._form["fields"].append(
                {
                    "name": name,
                    "type": kind,
                    "value": attrs.get("value") or ("on" if kind in ("checkbox", "radio") else ""),
                    "checked": "checked" in attrs,
                    "required": "required" in attrs,
                }
            )
        elif tag == "select" and name:
            self._select = {
                "name": name,
                "type": "select",
                "multiple": "multiple" in attrs,
                "options": [],
            }
            self._form["fields"].append(self._select)
        elif tag == "option" and self._select is not None:
            self._option = {
                "value": attrs.get("value"),
                "text": "",
                "selected": "selected" in attrs,
            }
            self._select["options"].append(self._option)
        elif tag == "textarea" and name:
            self._textarea = {"name": name, "type": "textarea", "value": ""}
            self._form["fields"].append(self._textarea)

    def handle_data(self, data):
        if self._textarea is not None:
            self._textarea["value"] += data
        elif self._option is not None:
            self._option["text"] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "option":
            self._option = None
        elif tag == "textarea" and self._textarea is not None:
            # The HTML parser drops the newline right after <textarea> (Django writes one).
            if self._textarea["value"].startswith("\n"):
                self._textarea["value"] = self._textarea["value"][1:]
            self._textarea = None


def form_fields_of(html: str, testid: str) -> list[dict]:
    """The fields of the page's form ``data-testid=testid``, as the page renders them."""
    parser = FormParser()
    parser.feed(html)
    forms = [form for form in parser.forms if form["attrs"].get("data-testid") == testid]
    assert len(forms) == 1, f"one form data-testid={testid!r} expected, {len(forms)} found"
    return forms[0]["fields"]


def _sent(field: dict) -> list[str]:
    """What the browser sends for a field left as rendered."""
    if field["type"] in ("checkbox", "radio"):
        return [field["value"]] if field["checked"] else []
    if field["type"] == "file":
        return []
    if field["type"] == "select":
        options = field["options"]
        chosen = [o for o in options if o["selected"]]
        if not chosen and options and not field["multiple"]:
            chosen = options[:1]
        return [o["value"] if o["value"] is not None else o["text"] for o in chosen]
    return [field["value"]]


def post_data(fields: list[dict], fill: dict | None = None) -> dict:
    """The body the browser posts: each field as rendered, the names in ``fill`` replaced by
    what the person typed or picked (a list for a multiple select; ``False``/``True`` to
    untick/tick a checkbox; bytes or an uploaded file for a file input). A name in ``fill``
    the page does not hold is an error: the person cannot fill a field the page lacks."""
    fill = dict(fill or {})
    names = {field["name"] for field in fields}
    missing = sorted(set(fill) - names)
    assert not missing, f"the page holds no field {missing}"
    data: dict[str, list] = {}
    for field in fields:
        name = field["name"]
        values = data.setdefault(name, [])
        if name not in fill:
            values.extend(_sent(field))
            continue
        value = fill[name]
        if field["type"] == "checkbox":
            if value is True or value == field["value"]:
                values.append(field["value"])
        elif field["type"] == "radio":
            if value == field["value"]:
                values.append(value)
        elif field["type"] == "file":
            if isinstance(value, tuple):
                value = SimpleUploadedFile(value[0], value[1])
            values.append(value)
        elif isinstance(value, list):
            values.extend(value)
        else:
            values.append("" if value is None else str(value))
        if field["type"] not in ("checkbox", "radio"):
            fill.pop(name)  # one field of the name takes the value
    return {name: values for name, values in data.items() if values}


def post_as_rendered(client, url: str, testid: str, fill: dict | None = None):
    """GET ``url``, then post its form ``testid`` as rendered with ``fill`` typed in."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    return client.post(url, post_data(form_fields_of(page.content.decode(), testid), fill))
