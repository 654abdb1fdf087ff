// tesearch view: draws one or two tables on canvases (no DOM element per cell), offline.
// The data (words by index, letters as small integers) sits in the page's JSON script element.
(function () {
  "use strict";
  const t0 = performance.now();
  const DATA = JSON.parse(document.getElementById("tesearch-data").textContent);
  const LABEL_W = 58, RULER_H = 32, MAX_PPC = 72;
  const LETTER_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948",
    "#9c755f", "#ff9da7", "#bab0ac", "#1f77b4", "#8c564b", "#17becf", "#bcbd22", "#7f7f7f", "#d62728",
    "#2ca02c", "#9467bd", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2"];
  const CLASS_COLOURS = ["#b8bec9", "#e8743b", "#4e79a7", "#59a14f"]; // none, core, block, filler
  const BLOCK_ALT = "#86a9cf"; // every other rotation block
  const BLANK = "#ffffff", HATCH = "#c3c8d2", GAP = "#ffffff", UNCHANGED = "#dfe3ea";

  function decode(a) {
    const bin = atob(a.b64), bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    if (a.type === "u8") return bytes;
    if (a.type === "u16") return new Uint16Array(bytes.buffer);
    return new Uint32Array(bytes.buffer);
  }
  function hexRgb(hex) { const n = parseInt(hex.slice(1), 16); return [(n >> 16) & 255, (n >> 8) & 255, n & 255]; }
  function rampColour(f) { // a viridis-like ramp, f in 0..1
    const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
    const x = Math.max(0, Math.min(1, f)) * (stops.length - 1), i = Math.min(stops.length - 2, Math.floor(x)), u = x - i;
    const c = stops[i].map((v, k) => Math.round(v + (stops[i + 1][k] - v) * u));
    return "#" + c.map(v => v.toString(16).padStart(2, "0")).join("");
  }
  function esc(s) { return String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

  // ------------------------------------------------------------------ one table's model
  function Model(d, index) {
    this.d = d; this.index = index;
    this.rows = d.rows; this.start = d.window[0]; this.end = d.window[1]; this.W = this.end - this.start;
    const A = d.arrays;
    this.row = decode(A.row); this.column = decode(A.column); this.length = decode(A.length);
    this.letters = decode(A.letters); this.element = decode(A.element); this.wordClass = decode(A.word_class);
    this.orbit = decode(A.orbit); this.orbitSize = decode(A.orbit_size);
    const n = d.words; this.n = n;
    const offs = new Uint32Array(n + 1);
    let maxLen = 1;
    for (let i = 0; i < n; i++) { offs[i + 1] = offs[i] + this.length[i]; if (this.length[i] > maxLen) maxLen = this.length[i]; }
    this.offs = offs; this.maxLen = maxLen;
    const cells = this.rows * this.W;
    this.grid = new Int32Array(cells).fill(-1);
    this.cellLetter = new Uint8Array(cells).fill(255);
    for (let i = 0; i < n; i++) {
      const r = this.row[i], c0 = this.column[i] - this.start;
      for (let j = 0; j < this.length[i]; j++) {
        const c = c0 + j;
        if (c < 0 || c >= this.W) continue;
        this.grid[r * this.W + c] = i; this.cellLetter[r * this.W + c] = this.letters[offs[i] + j];
      }
    }
    this.blanks = 0;
    for (let k = 0; k < cells; k++) if (this.grid[k] < 0) this.blanks++;
    this.keys = null;
  }
  Model.prototype.wordText = function (i) {
    const out = [];
    for (let k = this.offs[i]; k < this.offs[i + 1]; k++) out.push(this.d.letters[this.letters[k]]);
    return out.join(" ");
  };
  Model.prototype.elementOf = function (i) {
    const m = this.d.element_dims, out = [];
    for (let k = 0; k < m; k++) out.push(this.element[i * m + k]);
    return out;
  };
  Model.prototype.elementText = function (i) { return "(" + this.elementOf(i).join(", ") + ")"; };
  Model.prototype.buildKeys = function () {
    if (this.keys) return;
    this.keys = { element: new Map(), word: new Map() };
    for (let i = 0; i < this.n; i++) {
      this.keys.element.set(this.elementOf(i).join(","), i);
      this.keys.word.set(this.wordText(i), i);
    }
  };
  Model.prototype.at = function (row, col) { // word index or -1 (absolute column)
    const c = col - this.start;
    if (row < 0 || row >= this.rows || c < 0 || c >= this.W) return -1;
    return this.grid[row * this.W + c];
  };

  const models = DATA.tables.map((d, i) => new Model(d, i));
  const domainStart = Math.min(...models.map(m => m.start)), domainEnd = Math.max(...models.map(m => m.end));

  // ------------------------------------------------------------------ colours
  let mode = "letter";
  function unchangedWords(m) { // compare: is each word placed alike (same element, row, column, word) in the other table?
    const o = models[1 - m.index], out = new Uint8Array(m.n);
    m.buildKeys(); o.buildKeys();
    for (let i = 0; i < m.n; i++) {
      const j = o.keys.element.get(m.elementOf(i).join(","));
      out[i] = j !== undefined && o.row[j] === m.row[i] && o.column[j] === m.column[i] && o.wordText(j) === m.wordText(i) ? 1 : 0;
    }
    return out;
  }
  function wordColour(m, i, letter) {
    if (mode === "letter") return LETTER_COLOURS[letter % LETTER_COLOURS.length];
    if (mode === "diff") return m.unchanged[i] ? UNCHANGED : LETTER_COLOURS[letter % LETTER_COLOURS.length];
    if (mode === "length") return rampColour(m.maxLen <= 1 ? 0.5 : (m.length[i] - 1) / (m.maxLen - 1));
    const k = m.wordClass[i];
    return k === 2 && m.orbit[i] % 2 ? BLOCK_ALT : CLASS_COLOURS[k];
  }
  function paintCells(m) { // per cell: an index into m.paletteRgb (0 = blank)
    if (mode === "diff" && !m.unchanged) m.unchanged = unchangedWords(m);
    const cols = ["#000000"], index = new Map();
    const paint = new Uint16Array(m.rows * m.W);
    for (let k = 0; k < paint.length; k++) {
      const i = m.grid[k];
      if (i < 0) continue;
      const colour = wordColour(m, i, m.cellLetter[k]);
      let p = index.get(colour);
      if (p === undefined) { p = cols.length; cols.push(colour); index.set(colour, p); }
      paint[k] = p;
    }
    m.paint = paint; m.paletteRgb = cols.map(hexRgb);
  }

  // ------------------------------------------------------------------ layout and view state
  const main = document.getElementById("tables");
  const tooltip = document.getElementById("tooltip");
  const dpr = window.devicePixelRatio || 1;
  const view = { x0: domainStart, ppc: 1 }; // first visible column, CSS pixels per column
  let selected = null; // {word, element key}
  let hovered = null;
  const panels = models.map((m, k) => {
    const section = document.createElement("section");
    section.className = "panel";
    section.innerHTML = panelHeader(m, k);
    const canvas = document.createElement("canvas"); canvas.className = "main";
    const overview = document.createElement("canvas"); overview.className = "overview";
    section.appendChild(canvas); section.appendChild(overview);
    main.appendChild(section);
    const rowH = m.rows <= 8 ? 30 : m.rows <= 12 ? 24 : 18;
    return { m, section, canvas, overview, rowH, ctx: canvas.getContext("2d"), octx: overview.getContext("2d") };
  });

  function panelHeader(m, k) {
    const d = m.d, v = d.verdict;
    const verdict = !v.valid ? '<span class="badge bad">INVALID</span>'
      : v.optimal ? `<span class="badge ok">OPTIMAL: T = ${d.T} = the best lower bound</span>`
        : `<span class="badge gap">gap ${v.gap}: T = ${d.T}, best lower bound ${v.best}</span>`;
    const bound = `<span class="badge">bound ${v.best}: ${esc(v.binding)} binds (counting ${v.counting}, per-letter ${v.letter}${v.letter_exact ? "" : ", lower estimate"})</span>`;
    const checked = `<span class="badge">${v.valid ? "VALID" : "INVALID"} by Theorem 1 of Coolsaet, Fack and De Meyer (1994), checked when the page was made (${esc(d.checked_at)})</span>`;
    const shape = `<span class="badge">${d.rows} rows &times; ${d.T} columns${d.window[0] > 0 || d.window[1] < d.T ? `, columns ${d.window[0]}&ndash;${d.window[1] - 1} shown` : ""}; ${d.words} words; ${m.blanks} blanks</span>`;
    const rot = d.rotation ? `<span class="badge">rotation ${esc(d.rotation)}; ${d.orbits} orbits</span>` : '<span class="badge">no rotation</span>';
    const prov = d.provenance.length ? '<p class="provenance">how it was made: ' +
      d.provenance.map(([a, b]) => `<b>${esc(a)}</b> ${esc(b)}`).join(" &middot; ") + "</p>" : '<p class="provenance">how it was made: not recorded in the file</p>';
    const label = models.length > 1 ? `${k === 0 ? "A" : "B"}: ` : "";
    return `<h2>${label}${esc(d.name)} &mdash; ${esc(d.network)}, ${esc(d.exchange)} exchange, T = ${d.T}</h2>` +
      `<div class="facts">${verdict}${bound}${checked}${shape}${rot}</div>${prov}`;
  }

  function plotWidth() { return Math.max(100, panels[0].section.clientWidth - 28 - LABEL_W); }
  function minPpc() { return plotWidth() / (domainEnd - domainStart); }
  function visibleColumns() { return plotWidth() / view.ppc; }
  function clampView() {
    view.ppc = Math.max(minPpc(), Math.min(MAX_PPC, view.ppc));
    const span = visibleColumns();
    view.x0 = Math.max(domainStart, Math.min(view.x0, domainEnd - span));
    if (span >= domainEnd - domainStart) view.x0 = domainStart;
  }

  function sizeCanvas(c, w, h) {
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr); c.height = Math.round(h * dpr);
      c.style.width = w + "px"; c.style.height = h + "px";
    }
  }

  // ------------------------------------------------------------------ drawing
  function draw() {
    clampView();
    for (const p of panels) drawPanel(p);
    const a = Math.floor(view.x0), b = Math.min(domainEnd, Math.ceil(view.x0 + visibleColumns()));
    document.getElementById("window-label").textContent = `columns ${a}–${b - 1} of ${domainStart}–${domainEnd - 1} (${view.ppc >= 1 ? view.ppc.toFixed(1) + " px per column" : (1 / view.ppc).toFixed(1) + " columns per px"})`;
  }

  function drawPanel(p) {
    const m = p.m, W = plotWidth(), H = RULER_H + m.rows * p.rowH;
    sizeCanvas(p.canvas, W + LABEL_W, H);
    const ctx = p.ctx, S = dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#ffffff"; ctx.fillRect(0, 0, p.canvas.width, p.canvas.height);
    // cells, pixel by pixel (device pixels)
    const x0d = Math.round(LABEL_W * S), y0d = Math.round(RULER_H * S), wd = p.canvas.width - x0d, rowHd = p.rowH * S;
    const img = ctx.createImageData(wd, Math.round(m.rows * rowHd));
    const px = new Uint32Array(img.data.buffer);
    const pal = m.paletteRgb.map(([r, g, b]) => (255 << 24) | (b << 16) | (g << 8) | r);
    const white = 0xffffffff, hatch = (() => { const [r, g, b] = hexRgb(HATCH); return (255 << 24) | (b << 16) | (g << 8) | r; })();
    const ppcd = view.ppc * S, gapCols = view.ppc >= 5;
    const colOf = new Int32Array(wd), edge = new Uint8Array(wd);
    for (let x = 0; x < wd; x++) {
      const c = Math.floor(view.x0 + x / ppcd);
      colOf[x] = c - m.start;
      edge[x] = gapCols && x > 0 && Math.floor(view.x0 + (x - 1) / ppcd) !== c ? 1 : 0;
    }
    const imgW = wd;
    for (let r = 0; r < m.rows; r++) {
      const yTop = Math.round(r * rowHd), yBot = Math.round((r + 1) * rowHd) - Math.max(1, Math.round(S));
      for (let x = 0; x < wd; x++) {
        const c = colOf[x];
        let colour;
        const inTable = c >= 0 && c < m.W;
        const k = inTable ? m.paint[r * m.W + c] : -1;
        for (let y = yTop; y < yBot; y++) {
          if (!inTable) colour = white;
          else if (edge[x]) colour = white;
          else if (k > 0) colour = pal[k];
          else colour = ((x + y) % Math.max(4, Math.round(5 * S)) === 0) ? hatch : white;
          px[y * imgW + x] = colour;
        }
        for (let y = yBot; y < Math.round((r + 1) * rowHd); y++) px[y * imgW + x] = white;
      }
    }
    ctx.putImageData(img, x0d, y0d);
    ctx.setTransform(S, 0, 0, S, 0, 0);
    const first = Math.max(m.start, Math.floor(view.x0)), last = Math.min(m.end, Math.ceil(view.x0 + visibleColumns()));
    const X = c => LABEL_W + (c - view.x0) * view.ppc, Y = r => RULER_H + r * p.rowH;
    ctx.save();
    ctx.beginPath(); ctx.rect(LABEL_W, 0, W, H); ctx.clip();
    // word boundaries and letters
    if (view.ppc >= 5) {
      ctx.fillStyle = "#1d2330";
      for (let r = 0; r < m.rows; r++) {
        for (let c = first; c < last; c++) {
          const i = m.at(r, c);
          if (i < 0) continue;
          if (m.column[i] === c) ctx.fillRect(X(c) - 1, Y(r), 2, p.rowH - 1);
          if (m.column[i] + m.length[i] === c + 1) ctx.fillRect(X(c + 1) - 1, Y(r), 2, p.rowH - 1);
        }
      }
    }
    if (view.ppc >= 13) {
      const size = Math.min(p.rowH * 0.5, view.ppc * 0.55, 15);
      ctx.font = `600 ${size}px system-ui, sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
      for (let r = 0; r < m.rows; r++) {
        for (let c = first; c < last; c++) {
          const i = m.at(r, c);
          if (i < 0) continue;
          const [cr, cg, cb] = m.paletteRgb[m.paint[r * m.W + c - m.start]];
          ctx.fillStyle = (0.299 * cr + 0.587 * cg + 0.114 * cb) > 150 ? "#1d2330" : "#ffffff";
          ctx.fillText(m.d.letters[m.cellLetter[r * m.W + c - m.start]], X(c + 0.5), Y(r) + (p.rowH - 1) / 2 + 0.5);
        }
      }
    }
    // sections
    ctx.strokeStyle = "#333a48"; ctx.setLineDash([4, 3]); ctx.lineWidth = 1.2;
    for (const s of m.d.sections) for (const e of [s.start, s.end]) {
      if (e > view.x0 && e < view.x0 + visibleColumns() && e > m.start && e < m.end) {
        ctx.beginPath(); ctx.moveTo(X(e), 0); ctx.lineTo(X(e), H); ctx.stroke();
      }
    }
    ctx.setLineDash([]);
    // the selected word: a dark frame 3 px wide just outside its cells, a yellow line outside that
    if (selected) {
      const i = selectedIn(m);
      if (i >= 0) {
        const x = Math.round(X(m.column[i])), x2 = Math.max(x + 2, Math.round(X(m.column[i] + m.length[i])));
        const y = Y(m.row[i]), y2 = y + p.rowH - 1;
        const frame = (d, t, colour) => {
          ctx.fillStyle = colour;
          ctx.fillRect(x - d - t, y - d - t, x2 - x + 2 * (d + t), t); ctx.fillRect(x - d - t, y2 + d, x2 - x + 2 * (d + t), t);
          ctx.fillRect(x - d - t, y - d, t, y2 - y + 2 * d); ctx.fillRect(x2 + d, y - d, t, y2 - y + 2 * d);
        };
        frame(0, 3, "#111827"); frame(3, 2, "#ffd400");
      }
    }
    ctx.restore();
    // ruler: column numbers, section names
    ctx.fillStyle = "#5b6475"; ctx.font = "11px system-ui, sans-serif"; ctx.textBaseline = "middle";
    const steps = [1, 2, 5]; let step = 1;
    for (let e = 0; ; e++) { const s = steps[e % 3] * Math.pow(10, Math.floor(e / 3)); if (s * view.ppc >= 64) { step = s; break; } }
    ctx.textAlign = "center";
    ctx.save(); ctx.beginPath(); ctx.rect(LABEL_W, 0, W, H); ctx.clip();
    for (let c = Math.ceil(view.x0 / step) * step; c < view.x0 + visibleColumns(); c += step) {
      const half = ctx.measureText(String(c)).width / 2;
      ctx.fillText(String(c), Math.max(X(c + 0.5), LABEL_W + half + 1), RULER_H - 10);
      ctx.fillRect(X(c + 0.5), RULER_H - 3, 1, 3);
    }
    ctx.font = "italic 11px system-ui, sans-serif"; ctx.fillStyle = "#333a48"; ctx.textAlign = "left";
    for (const s of m.d.sections) {
      const a = Math.max(s.start, view.x0), b = Math.min(s.end, view.x0 + visibleColumns());
      if (b - a > 0 && (b - a) * view.ppc > 50) ctx.fillText(s.name, X(a) + 4, 7);
    }
    ctx.restore();
    ctx.textAlign = "right"; ctx.font = "12px system-ui, sans-serif"; ctx.fillStyle = "#5b6475";
    for (let r = 0; r < m.rows; r++) ctx.fillText(`row ${r}`, LABEL_W - 8, Y(r) + p.rowH / 2);
    drawOverview(p);
  }

  function overviewImage(p) { // the whole table, one pixel column per bucket of columns (cached per mode)
    const m = p.m, W = plotWidth(), h = Math.max(2, Math.min(4, Math.floor(36 / m.rows)));
    const key = mode + ":" + W + ":" + dpr;
    if (p.ovKey === key) return p.ovCanvas;
    const wd = Math.round(W * dpr), hd = Math.round(m.rows * h * dpr);
    const c = document.createElement("canvas"); c.width = wd; c.height = hd;
    const cx = c.getContext("2d"), img = cx.createImageData(wd, hd), px = new Uint32Array(img.data.buffer);
    const pal = m.paletteRgb.map(([r, g, b]) => (255 << 24) | (b << 16) | (g << 8) | r);
    const span = domainEnd - domainStart;
    for (let x = 0; x < wd; x++) {
      const c0 = Math.floor(domainStart + x * span / wd) - m.start;
      for (let r = 0; r < m.rows; r++) {
        const k = c0 >= 0 && c0 < m.W ? m.paint[r * m.W + c0] : 0;
        const colour = k > 0 ? pal[k] : 0xffdcd8d2;
        for (let y = Math.round(r * h * dpr); y < Math.round((r + 1) * h * dpr); y++) px[y * wd + x] = colour;
      }
    }
    cx.putImageData(img, 0, 0);
    p.ovKey = key; p.ovCanvas = c; p.ovH = m.rows * h;
    return c;
  }

  function drawOverview(p) {
    const W = plotWidth(), strip = overviewImage(p), H = p.ovH + 6;
    sizeCanvas(p.overview, W + LABEL_W, H);
    const ctx = p.octx;
    ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, p.overview.width, p.overview.height);
    ctx.drawImage(strip, Math.round(LABEL_W * dpr), Math.round(3 * dpr));
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#5b6475"; ctx.font = "11px system-ui, sans-serif"; ctx.textAlign = "right"; ctx.textBaseline = "middle";
    ctx.fillText("whole", LABEL_W - 8, H / 2);
    const span = domainEnd - domainStart, sx = c => LABEL_W + (c - domainStart) / span * W;
    const a = sx(view.x0), b = sx(Math.min(domainEnd, view.x0 + visibleColumns()));
    ctx.fillStyle = "rgba(17,24,39,0.10)";
    ctx.fillRect(LABEL_W, 0, Math.max(0, a - LABEL_W), H); ctx.fillRect(b, 0, Math.max(0, LABEL_W + W - b), H);
    ctx.strokeStyle = "#111827"; ctx.lineWidth = 2; ctx.strokeRect(a, 1, Math.max(2, b - a), H - 2);
    if (selected) {
      const i = selectedIn(p.m);
      if (i >= 0) { ctx.fillStyle = "#ffd400"; ctx.strokeStyle = "#111827"; ctx.lineWidth = 1; const x = sx(p.m.column[i]); ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x - 5, -1); ctx.lineTo(x, 8); ctx.lineTo(x + 5, -1); ctx.closePath(); ctx.fill(); ctx.stroke(); }
    }
  }

  // ------------------------------------------------------------------ legend
  function legend() {
    const m = models[0], out = [];
    const sw = c => `<span class="sw" style="background:${c}"></span>`;
    if (mode === "letter") m.d.letters.forEach((s, k) => out.push(`<span>${sw(LETTER_COLOURS[k % LETTER_COLOURS.length])}letter ${esc(s)}</span>`));
    else if (mode === "diff") {
      m.d.letters.forEach((s, k) => out.push(`<span>${sw(LETTER_COLOURS[k % LETTER_COLOURS.length])}letter ${esc(s)}: a word placed otherwise in the other table</span>`));
      out.push(`<span>${sw(UNCHANGED)}placed alike in both (same word, row and column)</span>`);
    }
    else if (mode === "length") for (let n = 1; n <= Math.max(...models.map(x => x.maxLen)); n++) out.push(`<span>${sw(rampColour(m.maxLen <= 1 ? 0.5 : (n - 1) / (m.maxLen - 1)))}length ${n}</span>`);
    else {
      if (models.some(x => x.d.rotation)) {
        out.push(`<span>${sw(CLASS_COLOURS[1])}core (orbit shorter than the letters)</span>`);
        out.push(`<span>${sw(CLASS_COLOURS[2])}${sw(BLOCK_ALT)}rotation blocks (alternate blocks)</span>`);
        out.push(`<span>${sw(CLASS_COLOURS[3])}filler (full orbit, not in a block)</span>`);
      }
      if (models.some(x => !x.d.rotation)) out.push(`<span>${sw(CLASS_COLOURS[0])}no rotation: no core or blocks</span>`);
    }
    out.push('<span><span class="sw blank"></span>blank</span>');
    document.getElementById("legend").innerHTML = out.join("");
  }
  if (models.length > 1) {
    const option = document.createElement("option");
    option.value = "diff"; option.textContent = "changes between A and B";
    document.getElementById("colour-mode").appendChild(option);
  }
  function setMode(value) {
    if (value === "diff" && models.length < 2) return;
    mode = value; document.getElementById("colour-mode").value = value;
    models.forEach(paintCells); legend(); draw();
  }

  // ------------------------------------------------------------------ hit testing
  function cellAt(clientX, clientY) {
    for (const p of panels) {
      const r0 = p.canvas.getBoundingClientRect();
      const x = clientX - r0.left, y = clientY - r0.top;
      if (x < LABEL_W || y < RULER_H || x >= r0.width || y >= r0.height) continue;
      const row = Math.floor((y - RULER_H) / p.rowH), column = Math.floor(view.x0 + (x - LABEL_W) / view.ppc);
      if (row < 0 || row >= p.m.rows || column < p.m.start || column >= p.m.end) return null;
      return { table: p.m.index, row, column, word: p.m.at(row, column) };
    }
    return null;
  }
  function cellRect(row, column, table) {
    const p = panels[table || 0], r0 = p.canvas.getBoundingClientRect();
    const left = LABEL_W + (column - view.x0) * view.ppc, top = RULER_H + row * p.rowH;
    if (left + view.ppc <= LABEL_W || left >= LABEL_W + plotWidth()) return null;
    return { x: r0.left + left, y: r0.top + top, width: view.ppc, height: p.rowH - 1,
      canvasX: left * dpr, canvasY: top * dpr, canvasWidth: view.ppc * dpr, canvasHeight: (p.rowH - 1) * dpr };
  }

  function describe(m, row, column) {
    const i = m.at(row, column);
    const head = (models.length > 1 ? (m.index === 0 ? "A · " : "B · ") : "") + `row ${row} · column ${column}`;
    if (i < 0) return { text: `${head}\nblank (no letter in this cell)`, html: `<b>${head}</b>\nblank (no letter in this cell)` };
    const L = m.d.letters[m.cellLetter[row * m.W + column - m.start]];
    const cls = m.d.class_names[m.wordClass[i]];
    const orbit = m.d.rotation ? `${cls} · orbit #${m.orbit[i]} of ${m.d.orbits} (size ${m.orbitSize[i]})` : cls;
    const kind = m.d.element_kind === "coordinates" ? "coordinates" : "permutation (images of 0..m-1)";
    const lines = [
      `letter ${L} · hop ${column - m.column[i] + 1} of ${m.length[i]}`,
      `word ${m.wordText(i)} · length ${m.length[i]} · starts at column ${m.column[i]} (columns ${m.column[i]}–${m.column[i] + m.length[i] - 1})`,
      `element ${m.elementText(i)} · ${kind}`,
      orbit,
    ];
    return { text: head + "\n" + lines.join("\n"), html: `<b>${esc(head)}</b>\n` + lines.map(esc).join("\n"), word: i };
  }

  // ------------------------------------------------------------------ selection and search
  function selectedIn(m) {
    if (!selected) return -1;
    m.buildKeys();
    const i = m.keys.element.get(selected.key);
    return i === undefined ? -1 : i;
  }
  function selectWord(m, i) { selected = i < 0 ? null : { key: m.elementOf(i).join(","), table: m.index }; draw(); }
  function centreOn(m, i, zoom) {
    if (zoom) view.ppc = Math.max(view.ppc, 24);
    view.x0 = m.column[i] + m.length[i] / 2 - visibleColumns() / 2;
    clampView();
  }
  function search(text) {
    const out = document.getElementById("search-result");
    text = (text || "").trim();
    let forced = null;
    if (/^[ew]:/i.test(text)) { forced = text[0].toLowerCase(); text = text.slice(2).trim(); }
    const found = [];
    for (const m of models) {
      m.buildKeys();
      let i, what;
      const numbers = text.match(/-?\d+/g) || [];
      const looksElement = /[(),\[\]]/.test(text) || numbers.length === m.d.element_dims;
      if (forced !== "w" && looksElement && numbers.join(" ").length > 0) {
        i = m.keys.element.get(numbers.join(",")); what = "element";
      }
      if (i === undefined && forced !== "e") {
        const tokens = tokenize(m, text);
        if (tokens) { i = m.keys.word.get(tokens.join(" ")); what = "word"; }
      }
      if (i !== undefined) found.push({ m, i, what });
    }
    if (!found.length) {
      out.textContent = text ? `no element or word ${text} in this table` : ""; out.className = "miss";
      return null;
    }
    const { m, i, what } = found[0];
    selected = { key: m.elementOf(i).join(","), table: m.index };
    centreOn(m, i, true);
    out.className = "";
    out.textContent = found.map(f => `${models.length > 1 ? (f.m.index ? "B: " : "A: ") : ""}${f.what} ${f.m.elementText(f.i)} → word ${f.m.wordText(f.i)} at row ${f.m.row[f.i]}, column ${f.m.column[f.i]}`).join("; ");
    draw();
    return found.map(f => ({ table: f.m.index, word: f.i, row: f.m.row[f.i], column: f.m.column[f.i], what: f.what }));
  }
  function tokenize(m, text) { // letters separated by spaces, or run together (longest letter first)
    const letters = m.d.letters.slice().sort((a, b) => b.length - a.length);
    const parts = text.split(/[\s,]+/).filter(Boolean), out = [];
    for (let part of parts) {
      if (m.d.letters.includes(part)) { out.push(part); continue; }
      while (part.length) {
        const s = letters.find(x => part.startsWith(x));
        if (!s) return null;
        out.push(s); part = part.slice(s.length);
      }
    }
    return out.length ? out : null;
  }

  // ------------------------------------------------------------------ interaction
  function zoomAt(factor, clientX) {
    const p = panels[0], r0 = p.canvas.getBoundingClientRect();
    const x = clientX === undefined ? LABEL_W + plotWidth() / 2 : clientX - r0.left;
    const col = view.x0 + (x - LABEL_W) / view.ppc;
    view.ppc = Math.max(minPpc(), Math.min(MAX_PPC, view.ppc * factor));
    view.x0 = col - (x - LABEL_W) / view.ppc;
    draw();
  }
  function panBy(columns) { view.x0 += columns; draw(); }

  function showTooltip(ev) {
    const cell = cellAt(ev.clientX, ev.clientY);
    if (!cell) { tooltip.hidden = true; hovered = null; return; }
    const info = describe(models[cell.table], cell.row, cell.column);
    hovered = { cell, text: info.text };
    tooltip.innerHTML = info.html; tooltip.hidden = false;
    const w = tooltip.offsetWidth, h = tooltip.offsetHeight;
    let x = ev.clientX + 14, y = ev.clientY + 16;
    if (x + w > window.innerWidth - 4) x = ev.clientX - w - 14;
    if (y + h > window.innerHeight - 4) y = ev.clientY - h - 12;
    tooltip.style.left = x + "px"; tooltip.style.top = y + "px";
  }

  for (const p of panels) {
    const c = p.canvas;
    const pointers = new Map();
    let drag = null, pinch = null;
    c.addEventListener("wheel", ev => {
      ev.preventDefault();
      if (Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) panBy(ev.deltaX / view.ppc);
      else zoomAt(Math.exp(-ev.deltaY * (ev.ctrlKey ? 0.01 : 0.0015)), ev.clientX);
    }, { passive: false });
    c.addEventListener("pointerdown", ev => {
      c.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, ev.clientX);
      if (pointers.size === 2) {
        const xs = [...pointers.values()];
        pinch = { d: Math.abs(xs[0] - xs[1]) || 1, ppc: view.ppc, mid: (xs[0] + xs[1]) / 2 }; drag = null;
      } else drag = { x: ev.clientX, x0: view.x0, moved: 0 };
    });
    c.addEventListener("pointermove", ev => {
      if (pointers.has(ev.pointerId)) pointers.set(ev.pointerId, ev.clientX);
      if (pinch && pointers.size === 2) {
        const xs = [...pointers.values()], d = Math.abs(xs[0] - xs[1]) || 1;
        zoomAt((pinch.ppc * d / pinch.d) / view.ppc, pinch.mid); return;
      }
      if (drag) {
        const dx = ev.clientX - drag.x;
        drag.moved = Math.max(drag.moved, Math.abs(dx));
        if (drag.moved > 3) { c.classList.add("dragging"); view.x0 = drag.x0 - dx / view.ppc; draw(); tooltip.hidden = true; return; }
      }
      showTooltip(ev);
    });
    const end = ev => {
      pointers.delete(ev.pointerId);
      if (pointers.size < 2) pinch = null;
      if (drag && drag.moved <= 3 && ev.type === "pointerup") {
        const cell = cellAt(ev.clientX, ev.clientY);
        if (cell) selectWord(models[cell.table], cell.word);
      }
      drag = null; c.classList.remove("dragging");
    };
    c.addEventListener("pointerup", end); c.addEventListener("pointercancel", end);
    c.addEventListener("pointerleave", () => { tooltip.hidden = true; hovered = null; });
    const jump = ev => {
      const r0 = p.overview.getBoundingClientRect(), f = (ev.clientX - r0.left - LABEL_W) / plotWidth();
      view.x0 = domainStart + f * (domainEnd - domainStart) - visibleColumns() / 2; draw();
    };
    p.overview.addEventListener("pointerdown", ev => { p.overview.setPointerCapture(ev.pointerId); jump(ev); });
    p.overview.addEventListener("pointermove", ev => { if (ev.buttons) jump(ev); });
  }
  document.addEventListener("keydown", ev => {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) return;
    const span = visibleColumns();
    switch (ev.key) {
      case "ArrowLeft": panBy(-(ev.shiftKey ? span : span / 8)); break;
      case "ArrowRight": panBy(ev.shiftKey ? span : span / 8); break;
      case "ArrowUp": case "+": case "=": zoomAt(1.5); break;
      case "ArrowDown": case "-": case "_": zoomAt(1 / 1.5); break;
      case "Home": view.x0 = domainStart; draw(); break;
      case "End": view.x0 = domainEnd; draw(); break;
      case "0": view.ppc = minPpc(); draw(); break;
      case "Escape": selected = null; draw(); break;
      default: return;
    }
    ev.preventDefault();
  });
  document.getElementById("zoom-in").addEventListener("click", () => zoomAt(1.5));
  document.getElementById("zoom-out").addEventListener("click", () => zoomAt(1 / 1.5));
  document.getElementById("zoom-fit").addEventListener("click", () => { view.ppc = minPpc(); draw(); });
  document.getElementById("colour-mode").addEventListener("change", ev => setMode(ev.target.value));
  document.getElementById("find").addEventListener("submit", ev => { ev.preventDefault(); search(document.getElementById("search").value); });
  window.addEventListener("resize", () => draw());

  // ------------------------------------------------------------------ start: whole table, or readable cells
  view.ppc = Math.max(minPpc(), Math.min(28, plotWidth() / Math.min(domainEnd - domainStart, 60)));
  if (domainEnd - domainStart > 2000) view.ppc = minPpc();
  models.forEach(paintCells); legend(); draw();

  // the test hook (tests/test_view.py) and the load-time figure (benchmarks/view.py)
  window.tesearchView = {
    ready: true,
    interactiveAt: performance.now(),
    scriptMs: performance.now() - t0,
    tables: models.length,
    cellAt, cellRect,
    visibleWindow: () => ({ start: view.x0, end: Math.min(domainEnd, view.x0 + visibleColumns()), pxPerColumn: view.ppc }),
    setView: (start, pxPerColumn) => { if (pxPerColumn) view.ppc = pxPerColumn; view.x0 = start; draw(); return window.tesearchView.visibleWindow(); },
    palette: () => ({ letters: Object.fromEntries(models[0].d.letters.map((s, k) => [s, LETTER_COLOURS[k % LETTER_COLOURS.length]])), blank: BLANK, unchanged: UNCHANGED, hatch: HATCH, gap: GAP, classes: CLASS_COLOURS, blockAlt: BLOCK_ALT }),
    setMode, search,
    selected: () => models.map(m => selectedIn(m)).map((i, k) => i < 0 ? null : { table: k, word: i, row: models[k].row[i], column: models[k].column[i], text: models[k].wordText(i), element: models[k].elementText(i) }),
    describe: (row, column, table) => describe(models[table || 0], row, column).text,
    tooltipText: () => (tooltip.hidden ? null : tooltip.innerText),
  };
})();
