"""What the page does in the browser: its style (``CSS``) and its script (``head``), given to Gradio's
``launch`` (``ui.layout.launch_options``).

The script does four things Gradio's components do not:

- A file over ``MAX_FILE_MB`` chosen or dropped on the upload box is not sent: a small stand-in
  under its name takes its place (``ui.handlers.NOT_SENT`` and its size), so the app refuses it by
  name with its own sentence and reads the others. Gradio would refuse the whole batch at its own
  limit, with a toast in its words and a bare "Error" left in the box.
- Each block of a page's text (``ui.pages.linked_text``) lights its box on the page's render when
  pointed at, focused or clicked; a click on the render lights the block under it and scrolls the
  text to it.
- When files are chosen, the first page of the first file not refused is scrolled into view as soon as
  it shows, and kept in view while the page fills in round it, until the person scrolls.
- ``/?view=api`` opens the API page on Python: Gradio reads that address before its API page is
  loaded, and shows the plain app (and its page would open on MCP).
"""

from __future__ import annotations

import json

from .handlers import NOT_SENT

CSS = """
.rl-file {border: 1px solid var(--border-color-primary); border-radius: 12px; padding: 12px; margin-bottom: 16px;}
.rl-error {color: var(--error-text-color); background: var(--error-background-fill); border-radius: 8px;
           padding: 4px 12px;}
.rl-source {opacity: .8; font-size: .9em;}
/* A page's render: its label and buttons float over Gradio's Image; a band above keeps them off the render,
   and scale-down shows it whole (never cropped, never blown up past its pixels). */
.rl-render .image-container {padding-top: 40px;}
.rl-render .image-frame {position: relative;}
.rl-render .image-frame img {object-fit: scale-down; cursor: crosshair;}
/* A block of a page's text and its box on the render, lit together. */
.rl-block {border-radius: 6px; margin: 0 -6px; padding: 0 6px; cursor: pointer;}
.rl-block:hover, .rl-block:focus-visible, .rl-block.rl-lit {background: var(--color-accent-soft); outline: none;}
.rl-mark {position: absolute; border: 3px solid var(--color-accent); background: rgba(99, 102, 241, .15);
          border-radius: 3px; pointer-events: none; z-index: 5;}
.rl-hint {font-weight: normal; opacity: .75;}
/* A table the reader is unsure of (TABLE_UNSURE): framed by a dashed line, under the line that says so. */
.rl-unsure {border: 2px dashed var(--color-accent); border-radius: 8px; padding: 0 8px; margin: 8px 0;}
/* A table keeps its columns' natural widths and scrolls sideways in its own box; a cell wraps between
   words, never inside one. */
.rl-rendered table {display: block; width: max-content; max-width: 100%; overflow-x: auto;}
.rl-rendered th, .rl-rendered td {overflow-wrap: normal; word-break: normal; hyphens: none; max-width: 32em;
                                  min-width: 3em;}
/* A chunk's text wraps at the card's edge, never cut; the chunk's page stays in view beside the cards. */
#chunk-cards pre, #chunk-cards pre code {white-space: pre-wrap; overflow-wrap: anywhere;}
#chunk-side {position: sticky; top: 8px; align-self: flex-start;}
/* Gradio clips its container with overflow: hidden, which holds anything sticky in place; clip does not. */
.gradio-container {overflow: clip !important;}
@media (max-width: 640px) {
  #chunk-side {order: -1; top: 0; z-index: 10; background: var(--background-fill-primary); max-height: 50vh;}
  #chunk-render .image-container {max-height: 34vh;}
}
/* A file's line: its name (never squeezed to a letter a line), then its tools on the same line when they fit,
   else under it as a whole; the page boxes as wide as their placeholders, the buttons kept together. */
#file-list .rl-file-row {flex-wrap: wrap; align-items: center; column-gap: 16px; row-gap: 4px;}
#file-list .rl-name {flex: 1 1 12rem; min-width: 12rem !important;}
#file-list .rl-file-tools {flex: 0 1 auto; width: auto; margin-left: auto; flex-wrap: wrap; align-items: center;
                           justify-content: flex-end; gap: 8px; min-width: 0;}
#file-list .rl-file-pages, #file-list .rl-file-buttons {flex: 0 0 auto; width: auto; flex-wrap: nowrap;
                                                        align-items: center; gap: 8px; min-width: 0;}
#file-list .rl-file-pages .form {flex: 0 0 auto; flex-direction: row; flex-wrap: nowrap; min-width: 0 !important;}
#file-list .rl-page-box {flex: 0 0 11rem; width: 11rem; min-width: 0 !important;}
#file-list .rl-file-buttons button {flex: 0 0 auto; min-width: 0 !important;}
@media (max-width: 640px) {
  #file-list .rl-name, #file-list .rl-file-tools, #file-list .rl-file-pages,
  #file-list .rl-file-pages .form {flex: 1 1 100%;}
  #file-list .rl-file-tools {justify-content: flex-start;}
  #file-list .rl-page-box {flex: 1 1 0; width: auto;}
}
/* A card shows its page when clicked: it says so by its cursor and outline; the one shown stays marked. */
.rl-card {border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 4px 12px; margin: 8px 0;
          cursor: pointer;}
.rl-card:hover, .rl-card:focus-visible {border-color: var(--color-accent);}
.rl-card.rl-chosen {border-color: var(--color-accent); box-shadow: 0 0 0 2px var(--color-accent-soft);}
/* A transcript row plays the recording from its start; the row playing is marked. */
.rl-transcript tbody tr {cursor: pointer;}
.rl-transcript tbody tr:hover, .rl-transcript tr.rl-playing {background: var(--color-accent-soft);}
.rl-transcript .rl-seek {white-space: nowrap; color: var(--link-text-color); text-decoration: underline;
                         background: none; border: none; box-shadow: none; padding: 0; font: inherit; cursor: pointer;}
/* The token table keeps its words whole (but for an image rule's, wrapped between them on a wide screen, so that
   the table fits): on a phone it scrolls sideways in its own box, the page does not, and a line over it says so. */
#estimates table {display: block; overflow-x: auto; max-width: 100%;}
#estimates th, #estimates td {white-space: nowrap;}
@media (min-width: 641px) {#estimates td:nth-child(5) {white-space: normal; min-width: 12em; max-width: 18em;}}
.rl-sideways {display: none;}
@media (max-width: 640px) {.rl-sideways {display: block;}}
"""

SCRIPT = """
(() => {
  const MAX_BYTES = %(max_bytes)d, NOT_SENT = %(not_sent)s;

  // A file over the limit goes as a stand-in under its name; null when every file may go.
  const standIns = files => {
    if (![...files].some(file => file.size > MAX_BYTES)) return null;
    const sent = new DataTransfer();
    for (const file of files)
      sent.items.add(file.size > MAX_BYTES ? new File([NOT_SENT + file.size + '\\n'], file.name) : file);
    return sent.files;
  };
  document.addEventListener('change', event => {
    const input = event.target;
    if (!input.matches || !input.matches('#uploads input[type=file]')) return;
    const files = standIns(input.files);
    if (files) input.files = files;
  }, true);
  document.addEventListener('drop', event => {
    const zone = event.target.closest && event.target.closest('#uploads');
    const files = zone && event.dataTransfer && standIns(event.dataTransfer.files);
    if (!files) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    const input = zone.querySelector('input[type=file]');
    input.files = files;
    input.dispatchEvent(new Event('change', {bubbles: true}));
  }, true);

  // Where a render's picture stands inside its <img> (scale-down: whole, centred, never enlarged).
  const shown = image => {
    const box = image.getBoundingClientRect();
    const scale = Math.min(box.width / image.naturalWidth, box.height / image.naturalHeight, 1);
    const width = image.naturalWidth * scale, height = image.naturalHeight * scale;
    return {left: box.left + (box.width - width) / 2, top: box.top + (box.height - height) / 2, width, height};
  };
  const renderOf = element => element.closest('.rl-page')?.querySelector('.rl-render img');
  // A block's box, from its class: rl-box-left-top-right-bottom in ten-thousandths of the page.
  const boxOf = block => (block.className.match(/rl-box-(\\d+)-(\\d+)-(\\d+)-(\\d+)/) || []).slice(1).map(v => v / 1e4);
  const light = block => {
    document.querySelectorAll('.rl-block.rl-lit').forEach(lit => lit.classList.remove('rl-lit'));
    document.querySelectorAll('.rl-mark').forEach(mark => mark.remove());
    const image = block && renderOf(block);
    if (!block) return;
    block.classList.add('rl-lit');
    if (!image || !image.naturalWidth) return;
    const [left, top, right, bottom] = boxOf(block);
    const area = shown(image), frame = image.parentElement.getBoundingClientRect();
    const mark = document.createElement('div');
    mark.className = 'rl-mark';
    Object.assign(mark.style, {
      left: `${area.left - frame.left + left * area.width}px`, top: `${area.top - frame.top + top * area.height}px`,
      width: `${(right - left) * area.width}px`, height: `${(bottom - top) * area.height}px`,
    });
    image.parentElement.appendChild(mark);
  };
  const blockAt = event => event.target.closest && event.target.closest('.rl-block');
  document.addEventListener('mouseover', event => { const block = blockAt(event); if (block) light(block); });
  document.addEventListener('focusin', event => { const block = blockAt(event); if (block) light(block); });
  document.addEventListener('click', event => {
    const image = event.target.closest && event.target.closest('.rl-render img');
    if (!image) return;
    const area = shown(image);
    const x = (event.clientX - area.left) / area.width, y = (event.clientY - area.top) / area.height;
    const size = block => { const [l, t, r, b] = boxOf(block); return (r - l) * (b - t); };
    const under = [...image.closest('.rl-page').querySelectorAll('.rl-block')].filter(block => {
      const [l, t, r, b] = boxOf(block);
      return l <= x && x <= r && t <= y && y <= b;
    }).sort((one, other) => size(one) - size(other));
    if (!under.length) return;
    event.preventDefault();
    event.stopPropagation();
    under[0].scrollIntoView({block: 'nearest'});
    light(under[0]);
  }, true);

  // Files chosen, dropped or picked from the examples: the first page of the first file not refused is brought
  // into view as soon as it shows, and kept there while the page fills in round it (the list of files above it
  // grows, the page is drawn again whole), until the person scrolls or clicks.
  let waiting = false, holding = false;
  const starts = event => event.target.closest?.('#uploads, [id$="-examples"]');
  ['change', 'drop', 'click'].forEach(type =>
    document.addEventListener(type, event => { if (starts(event)) waiting = true; }, true));
  ['wheel', 'touchstart', 'keydown', 'mousedown'].forEach(type =>
    document.addEventListener(type, event => { if (!starts(event)) holding = false; }, true));
  new MutationObserver(() => {
    const read = document.querySelector('.rl-file:not(.rl-refused)');
    const first = (waiting || holding) && read?.querySelector('.rl-page');
    if (first && (waiting || Math.abs(first.getBoundingClientRect().top) > 2)) {
      waiting = false;
      holding = true;
      first.scrollIntoView({block: 'start'});
    }
  }).observe(document.documentElement, {childList: true, subtree: true});

  // /?view=api: Gradio reads the address before its API page is loaded; the page opens it itself, on Python.
  const asked = new URLSearchParams(location.search);
  if (asked.get('view') === 'api') {
    asked.delete('view');
    history.replaceState(null, '', `${location.pathname}${asked.size ? '?' + asked : ''}`);
    const open = setInterval(() => {
      const link = [...document.querySelectorAll('footer a, footer button')].find(node => /API/.test(node.textContent));
      if (!link) return;
      clearInterval(open);
      link.click();
      const python = setInterval(() => {
        const tab = [...document.querySelectorAll('li.snippet')].find(node => node.textContent.trim() === 'Python');
        if (tab) { clearInterval(python); tab.click(); }
      }, 100);
    }, 100);
  }
})();
"""


def head(max_bytes: int) -> str:
    """The page's script, for ``launch(head=...)``, with the size limit it keeps to."""
    return f"<script>{SCRIPT % {'max_bytes': max_bytes, 'not_sent': json.dumps(NOT_SENT.decode())}}</script>"
