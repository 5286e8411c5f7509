// The board editor, in the browser: a grid of buttons painted at once on a tap or a key, the
// board sent back to Python as the component's state once the taps pause (see docs/editor.md).
//
// Python hands it everything about the rules it shows (which terrains, how many crowns each can
// carry, their colours): this file knows only how a brush paints a cell and that a kingdom has
// one castle, as games/editing.py does.

const SEND_AFTER_MS = 300; // a burst of taps is one rerun of the page, not one per tap
const CASTLE = "C";
const HOLE = ".";
const editors = new WeakMap(); // one editor per mounted component (its root element)
// The brush last chosen in this page, whichever player's board it was chosen on: a brush picked
// just before another player's board replaced the board on screen carries over to it.
let lastBrush = null;

export default function (component) {
  const { data, parentElement, setStateValue } = component;
  const root = parentElement.querySelector(".kd-editor");
  let editor = editors.get(root);
  if (editor === undefined) {
    editor = new BoardEditor(root);
    editors.set(root, editor);
  }
  editor.send = (edit) => setStateValue("edit", edit);
  editor.receive(JSON.parse(data)); // a JSON string: see board_component.board_editor
  return () => editor.unmount();
}

class BoardEditor {
  constructor(root) {
    this.root = root;
    this.mountId = Math.random().toString(36).slice(2, 10);
    this.edits = 0;
    this.sentId = null; // the last edit sent; Python names it in `ack` once applied
    this.timer = null;
    this.touched = new Map(); // "r,c" -> [r, c]: cells painted or confirmed since the last send
    this.cells = []; // tokens, row by row: "W1", "C", "."
    this.flagged = new Set(); // "r,c"
    this.size = 0;
    this.focus = [0, 0];
    this.movingCastle = false;
    this.confirming = false; // the "Right as read" brush: unflags a cell, paints nothing
    this.onPageHide = () => this.flush();
    window.addEventListener("pagehide", this.onPageHide);
    // A tap elsewhere on the page (another player's name, a button) sends the taps at once, so
    // that the page's next run has them.
    this.onOutsidePointer = (event) => {
      if (!event.composedPath().includes(this.root)) this.flush();
    };
    document.addEventListener("pointerdown", this.onOutsidePointer, true);
  }

  unmount() {
    this.flush();
    window.removeEventListener("pagehide", this.onPageHide);
    document.removeEventListener("pointerdown", this.onOutsidePointer, true);
  }

  // --- data from Python -----------------------------------------------------------------------

  receive(data) {
    const first = this.size === 0;
    // The words come from Python, in the page's language (ui/board_component.py); a new language
    // builds the editor again.
    const relabel = !first && data.texts.language !== this.texts.language;
    this.texts = data.texts;
    if (first || relabel) {
      this.terrains = data.terrains;
      this.byLetter = new Map(this.terrains.map((t) => [t.letter, t]));
      this.size = data.size;
      if (first) {
        const brush = lastBrush ?? data.brush;
        this.brush = this.byLetter.has(brush.letter)
          ? { letter: brush.letter, crowns: brush.crowns }
          : { letter: this.terrains[0].letter, crowns: 0 };
      }
      this.build();
    }
    // While taps are waiting to be sent, or sent and not yet applied, the board shown here is
    // newer than Python's: keep it. Otherwise Python's board is the board (a photo, the text box).
    const waiting = this.timer !== null || (this.sentId !== null && data.ack !== this.sentId);
    if (first || !waiting) {
      this.cells = data.cells.slice();
      this.flagged = new Set(data.flagged.map(([r, c]) => `${r},${c}`));
      this.error = data.error || "";
    }
    this.drawAll();
  }

  // --- painting -------------------------------------------------------------------------------

  at(r, c) {
    return this.cells[r * this.size + c];
  }

  put(r, c, token) {
    this.cells[r * this.size + c] = token;
  }

  castle() {
    const index = this.cells.indexOf(CASTLE);
    return [Math.floor(index / this.size), index % this.size];
  }

  maxCrowns(letter) {
    return this.byLetter.get(letter).max_crowns;
  }

  brushToken() {
    const { letter, crowns } = this.brush;
    return this.byLetter.get(letter).land ? letter + crowns : letter;
  }

  tap(r, c) {
    if (this.confirming) {
      if (this.flagged.has(`${r},${c}`)) this.changed([r, c]);
      else this.say(fill(this.texts.not_framed, { row: r + 1, column: c + 1 }));
      this.drawAll();
      return;
    }
    const onCastle = this.at(r, c) === CASTLE;
    if (this.movingCastle) {
      this.movingCastle = false;
      if (!onCastle) {
        // Put down here; the castle's old cell takes the brush (a hole for a castle brush).
        const [oldR, oldC] = this.castle();
        const fill = this.brush.letter === CASTLE ? HOLE : this.brushToken();
        this.put(oldR, oldC, fill);
        this.put(r, c, CASTLE);
        this.changed([oldR, oldC], [r, c]);
        return;
      }
      this.say(""); // tapped the castle again: it stays
      this.drawAll();
      return;
    }
    if (onCastle && this.brush.letter !== CASTLE) {
      this.movingCastle = true; // picked up; the next tap puts it down
      this.drawAll();
      return;
    }
    this.paint(r, c, this.brushToken());
  }

  paint(r, c, token) {
    if (token === CASTLE) {
      // The castle moves here; its old cell becomes a hole, which the user did not look at.
      const [oldR, oldC] = this.castle();
      this.put(oldR, oldC, HOLE);
      this.put(r, c, CASTLE);
      this.changed([r, c]);
      return;
    }
    if (this.at(r, c) === CASTLE) {
      this.say(this.texts.castle_tap);
      this.drawAll(); // said now, at this key or tap (not at the next one)
      return;
    }
    this.put(r, c, token);
    this.changed([r, c]);
  }

  // Only the cells the user painted or confirmed lose their flag.
  changed(...cells) {
    for (const [r, c] of cells) {
      this.touched.set(`${r},${c}`, [r, c]);
      this.flagged.delete(`${r},${c}`);
    }
    this.error = "";
    this.say("");
    this.drawAll();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), SEND_AFTER_MS);
  }

  flush() {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.edits += 1;
    this.sentId = `${this.mountId}-${this.edits}`;
    const rows = [];
    for (let r = 0; r < this.size; r++) {
      rows.push(this.cells.slice(r * this.size, (r + 1) * this.size).join(" "));
    }
    this.send({
      id: this.sentId,
      board: rows.join("\n") + "\n",
      touched: [...this.touched.values()],
      brush: this.brush,
    });
    this.touched.clear();
  }

  // --- keyboard -------------------------------------------------------------------------------

  key(event, r, c) {
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (event.key in moves) {
      const [dr, dc] = moves[event.key];
      this.moveFocus(Math.min(this.size - 1, Math.max(0, r + dr)), Math.min(this.size - 1, Math.max(0, c + dc)));
      event.preventDefault();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const letter = event.key === HOLE ? HOLE : event.key.toUpperCase();
    if (event.key.length === 1 && this.byLetter.has(letter)) {
      const terrain = this.byLetter.get(letter);
      this.paint(r, c, terrain.land ? letter + "0" : letter);
      event.preventDefault();
      return;
    }
    if (/^[0-9]$/.test(event.key)) {
      const token = this.at(r, c);
      const terrain = this.byLetter.get(token[0]);
      const crowns = Number(event.key);
      if (!terrain.land) {
        this.say(terrain.no_crowns_typed);
        this.drawAll(); // the refusal is said at this key, not at the next one
      } else if (crowns > terrain.max_crowns) {
        this.say(this.mostCrowns(terrain));
        this.drawAll();
      } else {
        this.paint(r, c, token[0] + crowns);
      }
      event.preventDefault();
    }
  }

  moveFocus(r, c) {
    this.focus = [r, c];
    this.drawAll();
    this.buttons[r * this.size + c].focus();
  }

  // --- drawing --------------------------------------------------------------------------------

  build() {
    const root = this.root;
    root.replaceChildren();
    const brush = el("div", "kd-brush");
    const terrains = el("div", "kd-terrains");
    terrains.setAttribute("role", "group");
    terrains.setAttribute("aria-label", this.texts.brush_terrain);
    this.terrainButtons = this.terrains.map((terrain) => {
      const button = el("button", "kd-terrain");
      button.type = "button";
      button.dataset.letter = terrain.letter;
      const swatch = el("span", "kd-swatch");
      swatch.style.background = terrain.colour;
      swatch.setAttribute("aria-hidden", "true");
      button.append(swatch, terrain.label);
      button.addEventListener("click", () => this.chooseTerrain(terrain.letter));
      terrains.append(button);
      return button;
    });
    this.confirmButton = el("button", "kd-terrain kd-confirm", this.texts.right_as_read);
    this.confirmButton.type = "button";
    this.confirmButton.addEventListener("click", () => {
      this.confirming = true;
      this.movingCastle = false;
      this.say("");
      this.drawAll();
    });
    terrains.append(this.confirmButton);
    const crowns = el("div", "kd-crowns");
    crowns.setAttribute("role", "group");
    crowns.setAttribute("aria-label", this.texts.brush_crowns);
    this.crownButtons = [0, 1, 2, 3].map((count) => {
      const button = el("button", "kd-crown-choice");
      button.type = "button";
      button.setAttribute("aria-label", this.texts.crowns[count]);
      button.append(String(count), crownIcon());
      button.addEventListener("click", () => {
        this.brush.crowns = count;
        lastBrush = { ...this.brush };
        this.drawAll();
      });
      crowns.append(button);
      return button;
    });
    this.crownNote = el("p", "kd-note");
    brush.append(terrains, crowns, this.crownNote);

    const grid = el("div", "kd-board");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", this.texts.board);
    grid.style.setProperty("--size", this.size);
    this.buttons = [];
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) {
        const button = el("button", "kd-cell");
        button.type = "button";
        button.addEventListener("click", () => {
          this.focus = [r, c];
          this.tap(r, c);
        });
        button.addEventListener("keydown", (event) => this.key(event, r, c));
        grid.append(button);
        this.buttons.push(button);
      }
    }
    this.status = el("p", "kd-status");
    this.status.setAttribute("role", "status");
    this.message = "";
    root.append(brush, grid, this.status);
  }

  chooseTerrain(letter) {
    this.confirming = false;
    this.say("");
    this.brush.letter = letter;
    this.brush.crowns = Math.min(this.brush.crowns, this.maxCrowns(letter));
    lastBrush = { ...this.brush };
    this.drawAll();
  }

  say(message) {
    this.message = message;
  }

  mostCrowns(terrain) {
    return terrain.most_crowns;
  }

  drawAll() {
    const brush = this.byLetter.get(this.brush.letter);
    if (this.flagged.size === 0) this.confirming = false; // nothing left to confirm
    this.confirmButton.hidden = this.flagged.size === 0;
    this.confirmButton.setAttribute("aria-pressed", String(this.confirming));
    for (const button of this.terrainButtons) {
      const chosen = !this.confirming && button.dataset.letter === brush.letter;
      button.setAttribute("aria-pressed", String(chosen));
    }
    this.crownButtons.forEach((button, count) => {
      button.hidden = this.confirming || !brush.land || count > brush.max_crowns;
      button.setAttribute("aria-pressed", String(count === this.brush.crowns));
    });
    if (this.confirming) this.crownNote.textContent = this.texts.tap_framed;
    else if (!brush.land) this.crownNote.textContent = brush.no_crowns;
    else this.crownNote.textContent = brush.max_crowns < 3 ? this.mostCrowns(brush) : "";
    const [focusR, focusC] = this.focus;
    for (let r = 0; r < this.size; r++) {
      for (let c = 0; c < this.size; c++) {
        this.drawCell(this.buttons[r * this.size + c], r, c, r === focusR && c === focusC);
      }
    }
    let status = this.message || this.error;
    if (!status && this.movingCastle) {
      const oldCell =
        brush.letter === CASTLE
          ? this.texts.a_hole
          : fill(this.texts.brush_fill, { terrain: brush.name, crowns: this.texts.crowns[this.brush.crowns] });
      status = fill(this.texts.castle_move, { fill: oldCell });
    }
    this.status.textContent = status || this.texts.idle;
    this.status.classList.toggle("kd-alert", Boolean(this.message || this.error || this.movingCastle));
  }

  drawCell(button, r, c, focused) {
    const token = this.at(r, c);
    const terrain = this.byLetter.get(token[0]);
    const crowns = terrain.land ? Number(token.slice(1) || 0) : 0;
    const flagged = this.flagged.has(`${r},${c}`);
    const drawn = `${token}|${flagged}|${focused}|${this.movingCastle}|${this.texts.language}`;
    button.tabIndex = focused ? 0 : -1;
    if (button.dataset.drawn === drawn) return; // nothing changed: leave the DOM alone
    button.dataset.drawn = drawn;
    const place = { row: r + 1, column: c + 1, terrain: terrain.name, crowns: this.texts.crowns[crowns] };
    const name = fill(crowns > 0 ? this.texts.cell_crowned : this.texts.cell, place);
    button.setAttribute("aria-label", name);
    if (flagged) button.setAttribute("aria-description", this.texts.flagged);
    else button.removeAttribute("aria-description");
    button.dataset.terrain = terrain.name;
    button.classList.toggle("kd-flagged", flagged);
    button.classList.toggle("kd-moving", this.movingCastle && token === CASTLE);
    button.style.setProperty("--colour", terrain.colour);
    const content = [];
    if (crowns > 0) {
      const row = el("span", "kd-cell-crowns");
      for (let i = 0; i < crowns; i++) row.append(crownIcon());
      content.push(row);
    }
    if (terrain.land) content.push(el("span", terrain.dark ? "kd-letter kd-light" : "kd-letter", terrain.letter));
    if (token === CASTLE) content.push(castleIcon());
    if (flagged) content.push(el("span", "kd-question", "?"));
    button.replaceChildren(...content);
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A translated text's {placeholders} filled in (the same named placeholders as the catalogs).
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

const SVG = "http://www.w3.org/2000/svg";

function svg(className, viewBox, points) {
  const icon = document.createElementNS(SVG, "svg");
  icon.setAttribute("class", className);
  icon.setAttribute("viewBox", viewBox);
  icon.setAttribute("aria-hidden", "true");
  const shape = document.createElementNS(SVG, "polygon");
  shape.setAttribute("points", points);
  icon.append(shape);
  return icon;
}

function crownIcon() {
  return svg("kd-crown", "0 0 20 16", "1,15 1,2 6,8 10,1 14,8 19,2 19,15");
}

function castleIcon() {
  return svg("kd-castle", "0 0 20 20", "3,19 3,5 6,5 6,8 8.5,8 8.5,5 11.5,5 11.5,8 14,8 14,5 17,5 17,19");
}
