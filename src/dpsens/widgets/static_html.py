"""The static explorer: an explorer as HTML and a little inline JavaScript, for the website.

Chapter: *For teachers* (how the explorers of every chapter work on the
website, with no kernel); every chapter with a "move the slider" figure is
shown on the site through :func:`explorer_html`.

:func:`explorer_html` writes a self-contained explorer: the views computed so
far (all of them in the book build) as ``data:`` PNGs or HTML, HTML controls
(``<input type="range">`` / ``<select>``, each with a ``<label>``) and the
inline script :data:`SCRIPT`, which swaps the view when a control moves and
says what is shown in a live region -- no kernel, no external JavaScript, no
network.  Every view has alt text.  A source is an image if it holds no
``<`` (a ``data:`` URI here; on the website the book's ``_ext/lean_pages.py``
turns each into the URL of a PNG file, fetched only when a control reaches
that view), else HTML: inline, or (on the website, again by ``lean_pages``)
the URL of an ``.html`` fragment the script fetches when a control reaches
it -- from ``file://``, where browsers refuse ``fetch``, it loads the
fragment's ``.js`` twin with a ``<script>`` instead; the default view is
always in the page.  Nothing here touches the live ipywidgets
(:mod:`dpsens.widgets.live`): a change to one cannot break the other.
"""
from __future__ import annotations

import base64
import html
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:                 # explorers imports this module
    from .explorers import Explorer

__all__ = ["SCRIPT", "explorer_html", "view_elements"]

#: Every control at least 24 x 24 CSS pixels (WCAG 2.2 target size, Lighthouse's ``target-size``):
#: a range input is 16 px high by default, and the audit then depends on what lies next to it.
TARGET_STYLE = "min-height:24px;min-width:24px"

#: The explorer's JavaScript (``__ID__`` stands for the explorer element's id).
SCRIPT = r"""(function(){
var root=document.getElementById("__ID__");if(!root)return;
var data=JSON.parse(root.querySelector("script.dpsens-explorer-data").textContent);
var img=root.querySelector("img.dpsens-explorer-image");
var box=root.querySelector(".dpsens-explorer-html");
var status=root.querySelector(".dpsens-explorer-status");
var ctrls=Array.prototype.slice.call(root.querySelectorAll("[data-index]"));
var cache={},waiting={},asked=0;
if(box&&box.getAttribute("data-source"))cache[box.getAttribute("data-source")]=box.innerHTML;
function label(c){if(c.tagName==="SELECT")return c.options[c.selectedIndex].text;
 return JSON.parse(c.getAttribute("data-labels"))[+c.value];}
function isHtml(s){return s.indexOf("<")>=0||/\.html$/.test(s);}
function fragment(i,done,fail){
 var s=data.sources[i];
 if(s.indexOf("<")>=0)return done(s);
 if(cache[i]!=null)return done(cache[i]);
 if(waiting[i])return waiting[i].push([done,fail]);
 waiting[i]=[[done,fail]];
 function got(t){cache[i]=t;var w=waiting[i];delete waiting[i];w.forEach(function(f){f[0](t);});}
 function lost(){var w=waiting[i];delete waiting[i];w.forEach(function(f){f[1]();});}
 function viaScript(){var el=document.createElement("script"),name=s.replace(/^.*\//,"").replace(/\.html$/,"");
  el.src=s.replace(/\.html$/,".js");
  el.onload=function(){var t=(window.dpsensFragments||{})[name];if(t==null)lost();else got(t);};
  el.onerror=lost;document.head.appendChild(el);}
 if(location.protocol!=="file:"&&window.fetch){
  fetch(s).then(function(r){if(!r.ok)throw r;return r.text();}).then(got,viaScript);}
 else viaScript();}
function announce(key){
 var parts=[];
 ctrls.forEach(function(c){parts.push(root.querySelector('label[for="'+c.id+'"]').textContent+" = "+label(c));});
 status.textContent="Showing "+parts.join(", ");
 root.setAttribute("data-current",key);}
function update(){
 var key=ctrls.map(function(c){return c.value;}).join("-");
 var v=data.views[key],token=++asked;
 var shown=(img&&img.style.display!=="none")?img:box;
 ctrls.forEach(function(c){if(c.tagName!=="SELECT"){var l=label(c);
  c.nextElementSibling.textContent=l;c.setAttribute("aria-valuetext",l);}});
 if(!v){status.textContent="This view is computed only when a reader asks for it in a running kernel "+
  "with ipywidgets; this copy of the page holds the views computed so far.";shown.style.opacity="0.35";
  root.setAttribute("data-current",key);return;}
 var src=data.sources[v[0]];
 if(!isHtml(src)){shown.style.opacity="";if(box)box.style.display="none";img.style.display="";
  img.src=src;img.alt=v[1];announce(key);return;}
 shown.style.opacity="0.35";root.setAttribute("aria-busy","true");
 fragment(v[0],function(h){if(token!==asked)return;
  root.removeAttribute("aria-busy");shown.style.opacity="";
  if(img)img.style.display="none";box.style.display="";box.innerHTML=h;
  box.setAttribute("aria-label",v[1]);box.setAttribute("data-source",v[0]);announce(key);},
 function(){if(token!==asked)return;root.removeAttribute("aria-busy");
  status.textContent="This view could not be loaded; the page's file "+src+" is missing.";
  root.setAttribute("data-current",key);});}
ctrls.forEach(function(c){c.addEventListener("input",update);c.addEventListener("change",update);});
})();"""


def explorer_html(ex: Explorer) -> str:
    """The kernel-free explorer of ``ex``: images, controls and a little inline JavaScript.

    Chapter: *For teachers*.

    Holds every view computed so far: all of them when the explorer
    precomputes (the website); with lazy views (a reader's kernel) a view
    not computed yet says so under the controls.
    """
    default_content, default_alt = ex.view_at(ex.default)
    uid = ex.element_id
    sources: list[str] = []
    src_index: dict[bytes | str, int] = {}
    table: dict = {}
    for key, (content, alt) in ex.views.items():
        if content not in src_index:
            src_index[content] = len(sources)
            sources.append(content if isinstance(content, str)
                           else "data:image/png;base64," + base64.b64encode(content).decode("ascii"))
        table["-".join(map(str, key))] = [src_index[content], alt]
    controls = []
    for i in range(len(ex.names)):
        opts = ex.options[i]
        cid = f"{uid}-c{i}"
        labels = [lab for lab, _ in opts]
        j0 = ex.default[i]
        esc = html.escape
        if ex.is_slider(i):
            widget = (f'<input type="range" id="{cid}" data-index="{i}" min="0" max="{len(opts) - 1}" '
                      f'step="1" value="{j0}" aria-valuetext="{esc(labels[j0])}" style="{TARGET_STYLE}" '
                      f"data-labels='{esc(json.dumps(labels), quote=True)}'>"
                      f'<output for="{cid}" style="min-width:4em;font-family:monospace">{esc(labels[j0])}</output>')
        else:
            options_html = "".join(
                f'<option value="{j}"{" selected" if j == j0 else ""}>{esc(lab)}</option>'
                for j, lab in enumerate(labels))
            widget = f'<select id="{cid}" data-index="{i}" style="{TARGET_STYLE}">{options_html}</select>'
        controls.append(
            f'<div class="dpsens-explorer-control" style="display:flex;align-items:center;gap:0.5em;margin:0.2em 0">'
            f'<label for="{cid}" style="min-width:8em;font-weight:600">{esc(ex.labels[i])}</label>{widget}</div>')
    data = json.dumps({"sources": sources, "views": table}, separators=(",", ":"))
    data = data.replace("</", "<\\/")  # never close the script element early
    title = (f'<div class="dpsens-explorer-title" style="font-weight:600">{html.escape(ex.title)}</div>'
             if ex.title else "")
    script = SCRIPT.replace("__ID__", uid)
    return (
        f'<div class="dpsens-explorer" id="{uid}" data-views="{len(ex.views)}" '
        f'style="border:1px solid #ccc;border-radius:6px;padding:0.6em;margin:0.5em 0">'
        f"{title}"
        f'<div class="dpsens-explorer-controls" role="group" aria-label="figure controls">{"".join(controls)}</div>'
        f"{view_elements(sources, src_index, default_content, default_alt)}"
        f'<div class="dpsens-explorer-status" aria-live="polite" style="font-size:0.85em;color:#555">'
        f"{html.escape(ex.status_text(ex.default))}</div>"
        f'<script type="application/json" class="dpsens-explorer-data">{data}</script>'
        f"<script>{script}</script>"
        f"</div>"
    )


def view_elements(sources: Sequence[str], src_index: Mapping[bytes | str, int], default_content: bytes | str,
                  default_alt: str) -> str:
    """The element(s) that show a view: an ``<img>`` if any view is a PNG, a ``<div>`` if any is HTML.

    Chapter: *For teachers*.
    """
    esc = html.escape
    is_html = isinstance(default_content, str)
    out = ""
    pngs = [s for s in sources if s.startswith("data:image/png;base64,")]
    if pngs:
        src = pngs[0] if is_html else sources[src_index[default_content]]
        out += (f'<img class="dpsens-explorer-image" src="{src}" alt="{esc(default_alt, quote=True)}" '
                f'style="max-width:100%;height:auto{";display:none" if is_html else ""}">')
    if len(pngs) < len(sources):
        out += (f'<div class="dpsens-explorer-html" data-source="{src_index[default_content] if is_html else ""}" '
                f'aria-label="{esc(default_alt, quote=True)}" '
                f'style="max-width:100%{"" if is_html else ";display:none"}">'
                f'{default_content if isinstance(default_content, str) else ""}</div>')
    return out
