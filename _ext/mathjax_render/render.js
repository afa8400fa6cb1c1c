// The website's maths typeset at build time by MathJax 3 (CHTML), for _ext/lean_pages.py.
// stdin: JSON [{fontURL, items: [{tex, display}]}, ...], one entry a page.
// stdout: JSON [{css, html: [...], errors: [...]}, ...]: for each formula its <mjx-container>,
// with the formula as MathML for screen readers (as MathJax's assistive-mml extension writes it),
// and the page's style sheet (the CHTML rules and fonts of the characters used on that page).
"use strict";
const {mathjax} = require("mathjax-full/js/mathjax.js");
const {TeX} = require("mathjax-full/js/input/tex.js");
const {CHTML} = require("mathjax-full/js/output/chtml.js");
const {liteAdaptor} = require("mathjax-full/js/adaptors/liteAdaptor.js");
const {RegisterHTMLHandler} = require("mathjax-full/js/handlers/html.js");
const {AllPackages} = require("mathjax-full/js/input/tex/AllPackages.js");
const {SerializedMmlVisitor} = require("mathjax-full/js/core/MmlTree/SerializedMmlVisitor.js");
const {STATE} = require("mathjax-full/js/core/MathItem.js");

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);
const packages = AllPackages.filter((p) => p !== "bussproofs");
const visitor = new SerializedMmlVisitor();

const pages = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = pages.map((page) => {
  const tex = new TeX({packages, formatError: (jax, err) => { throw err; }});
  const chtml = new CHTML({fontURL: page.fontURL, adaptiveCSS: true});
  const doc = mathjax.document("", {InputJax: tex, OutputJax: chtml});
  const html = [], errors = [];
  for (const item of page.items) {
    try {
      const mml = doc.convert(item.tex, {display: item.display, end: STATE.CONVERT});
      const node = doc.convert(item.tex, {display: item.display});
      const math = visitor.visitTree(mml);
      const container = adaptor.outerHTML(node);
      // the visual form hidden from screen readers, the MathML read instead
      const withMml = container
        .replace(/<\/mjx-container>$/, "<mjx-assistive-mml unselectable=\"on\" display=\"" +
          (item.display ? "block" : "inline") + "\">" + math + "</mjx-assistive-mml></mjx-container>")
        .replace(/<mjx-math\b/, "<mjx-math aria-hidden=\"true\"");
      html.push(withMml);
    } catch (err) {
      errors.push(String(err && err.message || err) + ": " + item.tex.slice(0, 80));
      html.push(null);
    }
  }
  const css = adaptor.textContent(chtml.styleSheet(doc));
  return {css, html, errors};
});
process.stdout.write(JSON.stringify(out));
