// The page: play Chariot, analyse, review a game file, save the game as PGN. No dependencies.
// The search runs in the engine's worker (chariot.mjs); the legal moves, check and the game's
// end come from Chariot's own rules code on a second wasm instance on this thread (rules.mjs).
import { Chariot } from './chariot.mjs';
import { Rules } from './rules.mjs';

const $ = (id) => document.getElementById(id);
const SVGNS = 'http://www.w3.org/2000/svg';
const params = new URLSearchParams(location.search);
const START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';
const GLYPH = { K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵', k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒' };
const LETTER = { K: 'K', A: 'A', B: 'E', N: 'H', R: 'R', C: 'C', P: 'P' };
const FILES = 'abcdefghi';
const glyph = (p) => ($('pieceset').value === 'letters' ? LETTER[p.toUpperCase()] : GLYPH[p]);

const state = {
  startFen: null, // null: the start position
  moves: [], // ICCS, the whole game
  view: 0, // plies shown on the board
  user: 'red', // 'red', 'black' or 'both'
  flipped: false,
  selected: null,
  review: null,
  analysing: false,
  tags: {},
};
let engine = null;
let rules = null;
let info = null; // rules' answer for the position shown
let searchGen = 0; // bumps whenever a search's answer stops being wanted
const expect = []; // one {purpose, gen} per `go` sent, in order
const pvs = []; // analysis lines by multipv index
let elo = null; // {min, max} from `uci`
const sent = {}; // option values the engine has
let drag = null;

// ---- positions ---------------------------------------------------------------------------
const positionCmd = (n = state.view) =>
  (state.startFen ? `position fen ${state.startFen}` : 'position startpos') + (n ? ' moves ' + state.moves.slice(0, n).join(' ') : '');

function refresh() {
  info = rules.position(positionCmd());
  if (!info.ok) {
    // Cannot happen for moves the rules accepted; keep the page usable all the same.
    message(`The position cannot be shown: ${info.error}`);
    state.moves = state.moves.slice(0, 0);
    state.view = 0;
    info = rules.position(positionCmd());
  }
  render();
}

function boardOf(fen) {
  const map = new Map();
  fen.split(' ')[0].split('/').forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else map.set(FILES[f++] + (9 - i), ch);
    }
  });
  return map;
}

const colorOf = (letter) => (letter === letter.toUpperCase() ? 'red' : 'black');
const xy = (sq) => {
  let f = FILES.indexOf(sq[0]);
  let r = Number(sq[1]);
  if (state.flipped) {
    f = 8 - f;
    r = 9 - r;
  }
  return [5 + 10 * f, 5 + 10 * (9 - r)];
};
function squareAt(clientX, clientY) {
  const svg = $('board');
  const pt = new DOMPoint(clientX, clientY).matrixTransform(svg.getScreenCTM().inverse());
  let f = Math.floor(pt.x / 10);
  let r = 9 - Math.floor(pt.y / 10);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (state.flipped) {
    f = 8 - f;
    r = 9 - r;
  }
  return FILES[f] + r;
}

// ---- drawing -----------------------------------------------------------------------------
function el(name, attrs = {}, parent = null, text = null) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function drawGrid(svg) {
  el('rect', { x: -1, y: -1, width: 92, height: 102, rx: 2, fill: 'var(--wood)' }, svg);
  const g = el('g', { class: 'grid' }, svg);
  for (let r = 0; r < 10; r++) el('line', { x1: 5, y1: 5 + 10 * r, x2: 85, y2: 5 + 10 * r }, g);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) el('line', { x1: 5 + 10 * f, y1: 5, x2: 5 + 10 * f, y2: 95 }, g);
    else {
      el('line', { x1: 5 + 10 * f, y1: 5, x2: 5 + 10 * f, y2: 45 }, g);
      el('line', { x1: 5 + 10 * f, y1: 55, x2: 5 + 10 * f, y2: 95 }, g);
    }
  }
  for (const y of [5, 75]) {
    el('line', { x1: 35, y1: y, x2: 55, y2: y + 20 }, g);
    el('line', { x1: 55, y1: y, x2: 35, y2: y + 20 }, g);
  }
  el('rect', { x: 4.6, y: 4.6, width: 80.8, height: 90.8, fill: 'none', stroke: 'var(--line)', 'stroke-width': 0.6 }, svg);
  el('text', { x: 25, y: 50, class: 'river', 'text-anchor': 'middle' }, svg, '楚 河');
  el('text', { x: 65, y: 50, class: 'river', 'text-anchor': 'middle' }, svg, '漢 界');
  const hits = el('g', { id: 'squares' }, svg);
  for (let f = 0; f < 9; f++)
    for (let r = 0; r < 10; r++) el('rect', { class: 'sq', 'data-sq': FILES[f] + r, x: 10 * f, y: 10 * (9 - r), width: 10, height: 10 }, hits);
  el('g', { id: 'marks-layer' }, svg);
  el('g', { id: 'pieces' }, svg);
  el('g', { id: 'hints' }, svg);
}

function placeSquares() {
  for (const r of document.querySelectorAll('#squares .sq')) {
    const [x, y] = xy(r.dataset.sq);
    r.setAttribute('x', x - 5);
    r.setAttribute('y', y - 5);
  }
}

function renderBoard() {
  placeSquares();
  const board = boardOf(info.fen);
  const svg = $('board');
  svg.dataset.fen = info.fen;
  svg.dataset.side = info.side;
  const marks = $('marks-layer');
  marks.replaceChildren();
  const last = state.view > 0 ? state.moves[state.view - 1] : null;
  if (last) {
    for (const sq of [last.slice(0, 2), last.slice(2, 4)]) {
      const [x, y] = xy(sq);
      el('rect', { class: 'hl-last', 'data-last': sq, x: x - 5, y: y - 5, width: 10, height: 10 }, marks);
    }
  }
  if (info.inCheck) {
    for (const [sq, p] of board) {
      if ((p === 'K' && info.side === 'red') || (p === 'k' && info.side === 'black')) {
        const [x, y] = xy(sq);
        el('circle', { class: 'hl-check', cx: x, cy: y, r: 5 }, marks);
      }
    }
  }
  const pieces = $('pieces');
  pieces.replaceChildren();
  for (const [sq, p] of board) {
    const [x, y] = xy(sq);
    const g = el('g', { class: `piece ${colorOf(p)}`, 'data-sq': sq, 'data-piece': p, transform: `translate(${x} ${y})` }, pieces);
    el('circle', { r: 4.4 }, g);
    el('circle', { r: 3.6, fill: 'none', 'stroke-width': 0.25 }, g);
    el('text', { y: 0.2 }, g, glyph(p));
  }
  const hints = $('hints');
  hints.replaceChildren();
  if (state.selected) {
    const [x, y] = xy(state.selected);
    el('rect', { class: 'hl-sel', x: x - 4.8, y: y - 4.8, width: 9.6, height: 9.6, rx: 1 }, hints);
    for (const m of info.legal) {
      if (m.slice(0, 2) !== state.selected) continue;
      const to = m.slice(2, 4);
      const [tx, ty] = xy(to);
      if (board.has(to)) el('circle', { class: 'hint capture', 'data-to': to, cx: tx, cy: ty, r: 4.6 }, hints);
      else el('circle', { class: 'hint', 'data-to': to, cx: tx, cy: ty, r: 1.4 }, hints);
    }
  }
}

const fmtMove = (h) => (notation() === 'iccs' ? h.iccs : notation() === 'chinese' ? h.chinese : h.wxf);
const notation = () => $('notation').value;

function renderMoves() {
  // The whole game's moves in notation (the rules write them), the shown ply marked.
  const all = state.view === state.moves.length ? info : rules.position(positionCmd(state.moves.length));
  const box = $('moves');
  box.replaceChildren();
  const blackFirst = (state.startFen || START).split(' ')[1] === 'b';
  const startNo = Number((state.startFen || START).split(' ')[5] || 1);
  const hist = all.ok ? all.history : [];
  let i = 0;
  const cell = (k) => {
    const d = document.createElement('span');
    if (k === null) return d;
    d.className = 'mv' + (k + 1 === state.view ? ' cur' : '');
    const mark = state.review && state.review.moves[k] ? state.review.moves[k].mark : '';
    d.textContent = fmtMove(hist[k]) + (mark || '');
    d.dataset.ply = k + 1;
    d.onclick = () => goToPly(k + 1);
    return d;
  };
  let no = startNo;
  while (i < hist.length) {
    const n = document.createElement('span');
    n.className = 'no';
    n.textContent = no + '.';
    box.append(n);
    if (i === 0 && blackFirst) {
      box.append(cell(null), cell(0));
      i = 1;
    } else {
      box.append(cell(i), i + 1 < hist.length ? cell(i + 1) : cell(null));
      i += 2;
    }
    no++;
  }
  const cur = box.querySelector('.cur');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  else box.scrollTop = 0;
}

function statusText() {
  if (info.result !== '*') return `Game over: ${info.outcome}`;
  const who = info.side === 'red' ? 'Red' : 'Black';
  if (state.view < state.moves.length) return `Ply ${state.view} of ${state.moves.length} (${who} to move)`;
  if (state.analysing) return `Analysing (${who} to move)`;
  if (engineToMove()) return `Chariot (${who}) is thinking…`;
  return `${who} to move${info.inCheck ? ' — check!' : ''}`;
}

function render() {
  renderBoard();
  renderMoves();
  $('status').textContent = statusText();
  $('analyse').classList.toggle('on', state.analysing);
  $('analyse').textContent = state.analysing ? 'Stop analysis' : 'Analyse';
  if (info.result !== '*') message(`Game over: ${info.outcome}`, 'end');
  else if ($('message').classList.contains('end')) clearMessage();
  if (state.review) renderReviewCursor();
  renderLines();
}

function message(text, kind = '') {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
  m.hidden = false;
}
function clearMessage() {
  $('message').hidden = true;
  $('message').className = '';
}

// ---- the evaluation bar and the analysis lines --------------------------------------------
function scoreText(s) {
  if (s.mate !== undefined) return (s.mate > 0 ? '#' : '#-') + Math.abs(s.mate);
  return (s.cp >= 0 ? '+' : '') + (s.cp / 100).toFixed(2);
}
function setEvalBar(s) {
  // s is from Red's view.
  let frac;
  if (s.mate !== undefined) frac = s.mate > 0 ? 1 : 0;
  else frac = 1 / (1 + Math.exp(-s.cp / 300));
  $('evalfill').style.height = `${(frac * 100).toFixed(1)}%`;
  $('evaltext').textContent = scoreText(s);
  $('evalbar').dataset.score = scoreText(s);
}

let linesTimer = null;
function onInfo(l) {
  const t = l.split(/\s+/);
  const at = (k) => t.indexOf(k);
  if (at('pv') < 0 || at('score') < 0) return;
  const multipv = at('multipv') >= 0 ? Number(t[at('multipv') + 1]) : 1;
  const kind = t[at('score') + 1];
  const v = Number(t[at('score') + 2]);
  const flip = info.side === 'black' ? -1 : 1;
  const red = kind === 'mate' ? { mate: v * flip } : { cp: v * flip };
  pvs[multipv - 1] = { depth: Number(t[at('depth') + 1]), score: red, pv: t.slice(at('pv') + 1), fen: info.fen };
  if (!linesTimer) linesTimer = setTimeout(renderLines, 120);
}
function renderLines() {
  linesTimer = null;
  const ol = $('lines');
  ol.replaceChildren();
  const live = pvs.filter((p) => p && p.fen === info.fen);
  if (!live.length) return;
  setEvalBar(live[0].score);
  const conv = rules.position(positionCmd(), live.map((p) => p.pv));
  live.forEach((p, i) => {
    const li = document.createElement('li');
    const line = conv.ok ? conv.lines[i] : null;
    const text = !line ? p.pv.join(' ') : notation() === 'iccs' ? line.iccs.join(' ') : notation() === 'chinese' ? line.chinese : line.wxf;
    li.innerHTML = `<span class="score"></span> <span class="depth"></span> <span class="pv"></span>`;
    li.querySelector('.score').textContent = scoreText(p.score);
    li.querySelector('.depth').textContent = `d${p.depth}`;
    li.querySelector('.pv').textContent = text;
    li.dataset.pv = p.pv.join(' ');
    ol.append(li);
  });
}

// ---- the engine --------------------------------------------------------------------------
const engineToMove = () => state.user !== 'both' && info.result === '*' && state.view === state.moves.length && info.side !== state.user;
const searching = () => expect.length > 0;

function setOption(name, value) {
  if (sent[name] === value) return;
  sent[name] = value;
  engine.send(`setoption name ${name} value ${value}`);
}

function cancelSearch() {
  searchGen++;
  if (searching()) engine.send('stop');
}

function go(purpose) {
  cancelSearch();
  const gen = searchGen;
  const level = $('level').value;
  if (purpose === 'play' && level !== 'max' && elo) {
    setOption('UCI_LimitStrength', 'true');
    setOption('UCI_Elo', level);
  } else if (elo) setOption('UCI_LimitStrength', 'false');
  setOption('MultiPV', purpose === 'play' ? '1' : $('multipv').value);
  pvs.length = 0;
  renderLines();
  engine.send(positionCmd());
  engine.send(purpose === 'play' ? `go ${params.get('nodes') ? 'nodes ' + Number(params.get('nodes')) : $('limit').value}` : 'go infinite');
  expect.push({ purpose, gen });
}

function onBestmove(l) {
  const tok = expect.shift();
  if (!tok || tok.gen !== searchGen || tok.purpose !== 'play') return;
  const mv = l.split(/\s+/)[1];
  if (!engineToMove()) return;
  if (!info.legal.includes(mv)) {
    message(`The engine answered '${l}', which is not a legal move here.`);
    return;
  }
  play(mv);
}

function afterChange() {
  state.selected = null;
  refresh();
  if (state.analysing && state.view === state.moves.length && info.result === '*') go('analyse');
  else if (state.analysing) cancelSearch();
  else if (engineToMove()) go('play');
  else cancelSearch();
}

function play(mv) {
  state.moves = state.moves.slice(0, state.view);
  state.moves.push(mv);
  state.view = state.moves.length;
  if (state.review) closeReview();
  afterChange();
}

function goToPly(n) {
  state.view = Math.max(0, Math.min(state.moves.length, n));
  afterChange();
}

// ---- moving by click or drag -------------------------------------------------------------
const userMayMove = () => info.result === '*' && (state.user === 'both' || info.side === state.user || state.view < state.moves.length);
const ownPiece = (sq) => {
  const p = boardOf(info.fen).get(sq);
  return p && colorOf(p) === info.side;
};

function tryMove(from, to) {
  const mv = from + to;
  if (info.legal.includes(mv)) {
    clearMessage();
    play(mv);
    return true;
  }
  message(`${mv} is not a legal move.`, 'info');
  state.selected = null;
  renderBoard();
  return false;
}

function onPointerDown(e) {
  if (!info || !userMayMove()) return;
  const sq = squareAt(e.clientX, e.clientY);
  if (!sq) return;
  if (state.selected && sq !== state.selected && !ownPiece(sq)) {
    tryMove(state.selected, sq);
    return;
  }
  if (ownPiece(sq)) {
    state.selected = sq;
    renderBoard();
    const g = document.querySelector(`#pieces .piece[data-sq="${sq}"]`);
    drag = { from: sq, g, moved: false, id: e.pointerId };
    $('board').setPointerCapture(e.pointerId);
    e.preventDefault();
  }
}
function onPointerMove(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const svg = $('board');
  const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(svg.getScreenCTM().inverse());
  drag.moved = true;
  drag.g.classList.add('dragging');
  drag.g.setAttribute('transform', `translate(${pt.x} ${pt.y}) scale(1.12)`);
  $('pieces').appendChild(drag.g);
}
function onPointerUp(e) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  const sq = squareAt(e.clientX, e.clientY);
  if (d.moved && sq && sq !== d.from) tryMove(d.from, sq);
  else renderBoard();
}

// ---- review ------------------------------------------------------------------------------
/** `12.` or `12…` for the move at ply index k (0: the first move of the game). */
function moveLabel(k) {
  const fen = (state.startFen || START).split(' ');
  const off = fen[1] === 'b' ? 1 : 0;
  const no = Number(fen[5] || 1) + Math.floor((k + off) / 2);
  return (k + off) % 2 === 0 ? `${no}.` : `${no}…`;
}

const MARK_CLASS = { '?!': 'mark-dubious', '?': 'mark-mistake', '??': 'mark-blunder' };

async function openFile(file) {
  let bytes;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (e) {
    message(`Cannot read ${file.name}: ${e.message}. The game in progress is kept.`);
    return;
  }
  state.analysing = false;
  cancelSearch();
  message(`Reviewing ${file.name}…`, 'info');
  $('status').textContent = `Reviewing ${file.name}…`;
  const r = await engine.review(bytes, Number(params.get('reviewNodes')) || 20000);
  if (!r || !r.ok) {
    message(`Cannot open ${file.name}: ${r ? r.error : 'no answer'}. The game in progress is kept.`);
    refresh();
    if (engineToMove()) go('play');
    return;
  }
  clearMessage();
  state.startFen = r.fen === START ? null : r.fen;
  state.moves = r.moves.map((m) => m.move);
  state.view = state.moves.length;
  state.user = 'both';
  $('side').value = 'both';
  state.tags = { Red: r.red, Black: r.black };
  state.review = r;
  state.selected = null;
  refresh();
  renderReview();
}

function closeReview() {
  state.review = null;
  $('review').hidden = true;
}

function renderReview() {
  const r = state.review;
  $('review').hidden = false;
  const ul = $('summary');
  ul.replaceChildren();
  // The players' accuracy and the game's end; the marked moves are in the table below.
  for (const s of r.summary.filter((l) => !/^\s*\d/.test(l))) {
    const li = document.createElement('li');
    li.textContent = s.trim();
    ul.append(li);
  }
  const tb = document.querySelector('#marks tbody');
  tb.replaceChildren();
  for (const m of r.moves) {
    if (!m.mark) continue;
    const tr = document.createElement('tr');
    tr.dataset.ply = m.ply + 1;
    for (const [text, cls] of [[moveLabel(m.ply), ''], [notation() === 'chinese' ? m.chinese : notation() === 'iccs' ? m.move : m.wxf, ''], [m.mark, MARK_CLASS[m.mark] || ''], [m.better, ''], [(m.eval / 100).toFixed(2), '']]) {
      const td = document.createElement('td');
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    }
    // The board shows the position before the marked move, where the better line starts.
    tr.onclick = () => goToPly(m.ply);
    tb.append(tr);
  }
  drawGraph(r);
}

function drawGraph(r) {
  const svg = $('graph');
  svg.replaceChildren();
  const W = 300;
  const H = 110;
  const n = r.moves.length;
  const clamp = (v) => Math.max(-1000, Math.min(1000, v));
  const X = (i) => (n <= 1 ? W / 2 : 4 + ((W - 8) * i) / n);
  // Winning chances rather than centipawns, so that one lost piece does not flatten the rest.
  const Y = (cp) => H / 2 - (2 / (1 + Math.exp(-clamp(cp) / 300)) - 1) * (H / 2 - 5);
  el('rect', { x: 0, y: 0, width: W, height: H / 2, fill: '#fbeaea' }, svg);
  el('rect', { x: 0, y: H / 2, width: W, height: H / 2, fill: '#eeeeee' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#999', 'stroke-width': 0.6 }, svg);
  const pts = [[X(0), Y(0)], ...r.moves.map((m, i) => [X(i + 1), Y(m.eval)])];
  el('polygon', { points: [[X(0), H / 2], ...pts, [X(n), H / 2]].map((p) => p.join(',')).join(' '), fill: 'rgba(184,35,27,.25)' }, svg);
  el('polyline', { id: 'graph-line', points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: '#b8231b', 'stroke-width': 1.2 }, svg);
  r.moves.forEach((m, i) => {
    if (!m.mark) return;
    const colour = m.mark === '??' ? '#c0141c' : m.mark === '?' ? '#d2691e' : '#c98a00';
    const c = el('circle', { class: 'graph-mark', 'data-mark': m.mark, cx: X(i + 1), cy: Y(m.eval), r: 2.6, fill: colour }, svg);
    el('title', {}, c, `${moveLabel(m.ply)} ${m.wxf}${m.mark} (better ${m.better})`);
  });
  el('line', { id: 'graph-cursor', x1: X(state.view), y1: 0, x2: X(state.view), y2: H, stroke: '#2f6fb3', 'stroke-width': 0.8 }, svg);
  svg.onclick = (e) => {
    const b = svg.getBoundingClientRect();
    goToPly(Math.round((((e.clientX - b.left) / b.width) * W - 4) / ((W - 8) / Math.max(1, n))));
  };
}

function renderReviewCursor() {
  const c = document.getElementById('graph-cursor');
  const n = state.review.moves.length;
  if (c) {
    const x = n <= 1 ? 150 : 4 + (292 * state.view) / n;
    c.setAttribute('x1', x);
    c.setAttribute('x2', x);
  }
  if (!state.analysing) setEvalBar({ cp: state.view > 0 ? state.review.moves[state.view - 1].eval : 0 });
  for (const tr of document.querySelectorAll('#marks tbody tr')) tr.classList.toggle('cur', Number(tr.dataset.ply) === state.view + 1);
}

// ---- PGN ---------------------------------------------------------------------------------
function pgnText() {
  const all = rules.position(positionCmd(state.moves.length));
  const d = new Date();
  const date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
  const chariot = 'Chariot';
  const red = state.tags.Red || (state.user === 'black' ? chariot : state.user === 'red' ? 'You' : '?');
  const black = state.tags.Black || (state.user === 'red' ? chariot : state.user === 'black' ? 'You' : '?');
  const tags = [['Event', 'Game on the Chariot page'], ['Site', location.host || 'local'], ['Date', date], ['Red', red], ['Black', black], ['Result', all.result], ['Format', 'WXF']];
  if (state.startFen) tags.push(['FEN', state.startFen]);
  let out = tags.map(([k, v]) => `[${k} "${String(v).replace(/["\\]/g, '')}"]`).join('\n') + '\n\n';
  const fen = state.startFen || START;
  let black2move = fen.split(' ')[1] === 'b';
  let no = Number(fen.split(' ')[5] || 1);
  const words = [];
  all.history.forEach((h, i) => {
    // A move number stays on the line of its move.
    if (!black2move) words.push(`${no}. ${h.wxf}`);
    else if (i === 0) words.push(`${no}... ${h.wxf}`);
    else words.push(h.wxf);
    if (black2move) no++;
    black2move = !black2move;
  });
  if (all.result !== '*') words.push(`{${all.outcome}}`);
  words.push(all.result);
  // Lines of at most 80 characters.
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) {
      out += line + '\n';
      line = w;
    } else line = line ? line + ' ' + w : w;
  }
  return out + line + '\n';
}

function savePgn() {
  const blob = new Blob([pgnText()], { type: 'application/x-chess-pgn' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `chariot-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.pgn`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// ---- controls ----------------------------------------------------------------------------
function newGame() {
  state.startFen = null;
  state.moves = [];
  state.view = 0;
  state.tags = {};
  state.user = $('side').value;
  closeReview();
  clearMessage();
  cancelSearch();
  engine.send('ucinewgame');
  afterChange();
}

function takeBack() {
  if (!state.moves.length) return;
  state.moves = state.moves.slice(0, state.view);
  let n = 1;
  // Against the engine, back to the user's own turn.
  if (state.user !== 'both') {
    const after = rules.position(positionCmd(state.moves.length - 1));
    if (after.ok && after.side !== state.user && state.moves.length >= 2) n = 2;
  }
  state.moves = state.moves.slice(0, Math.max(0, state.moves.length - n));
  state.view = state.moves.length;
  if (state.review) closeReview();
  clearMessage();
  afterChange();
}

function wire() {
  const svg = $('board');
  svg.addEventListener('pointerdown', onPointerDown);
  svg.addEventListener('pointermove', onPointerMove);
  svg.addEventListener('pointerup', onPointerUp);
  svg.addEventListener('pointercancel', () => {
    drag = null;
    renderBoard();
  });
  $('new').onclick = newGame;
  $('takeback').onclick = takeBack;
  $('flip').onclick = () => {
    state.flipped = !state.flipped;
    renderBoard();
  };
  $('save').onclick = savePgn;
  $('open').onchange = (e) => {
    const f = e.target.files[0];
    e.target.value = '';
    if (f) openFile(f);
  };
  $('side').onchange = () => {
    state.user = $('side').value;
    afterChange();
  };
  $('analyse').onclick = () => {
    state.analysing = !state.analysing;
    afterChange();
    render();
  };
  $('multipv').onchange = () => state.analysing && afterChange();
  $('pieceset').value = localStorage.getItem('chariot-pieces') || 'chinese';
  $('pieceset').onchange = () => {
    localStorage.setItem('chariot-pieces', $('pieceset').value);
    renderBoard();
  };
  $('notation').onchange = () => {
    renderMoves();
    renderLines();
    if (state.review) renderReview();
  };
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT' || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowLeft') goToPly(state.view - 1);
    if (e.key === 'ArrowRight') goToPly(state.view + 1);
  });
}

async function main() {
  drawGrid($('board'));
  try {
    rules = await Rules.load();
    engine = await Chariot.start();
  } catch (e) {
    $('status').textContent = `The engine could not start: ${e.message}`;
    return;
  }
  let uciok;
  const handshake = new Promise((r) => (uciok = r));
  engine.onLine((l) => {
    if (l.startsWith('bestmove') || l.startsWith('nobestmove')) onBestmove(l);
    else if (l.startsWith('info ') && l.includes(' pv ')) onInfo(l);
    else if (l.startsWith('info string error')) {
      message(l.slice(12));
      if (l.includes('the engine crashed') || l.includes('the engine stopped')) {
        // Its searches will not answer: forget them, and carry on with the restarted engine.
        expect.length = 0;
        searchGen++;
        for (const k of Object.keys(sent)) delete sent[k];
        setTimeout(() => engineToMove() && !state.analysing && go('play'), 500);
      }
    }
    else if (l.startsWith('option name UCI_Elo ')) {
      const m = l.match(/min (\d+) max (\d+)/);
      if (m) elo = { min: Number(m[1]), max: Number(m[2]) };
    } else if (l === 'uciok') uciok();
  });
  engine.send('uci');
  await handshake;
  if (elo) {
    const sel = $('level');
    const step = Math.max(50, Math.round((elo.max - elo.min) / 8 / 50) * 50);
    for (let v = elo.min; v < elo.max; v += step) {
      const o = document.createElement('option');
      o.value = String(v);
      o.textContent = `Elo ${v}`;
      sel.append(o);
    }
  }
  $('footer').textContent = `Chariot in WebAssembly · ${engine.shared ? 'cross-origin isolated: stop and isready reach a running search' : 'not cross-origin isolated: a search is stopped by restarting the engine'} · the rules are Chariot's own (Asian rules, 60-move rule)`;
  if (params.get('side')) $('side').value = params.get('side');
  state.user = $('side').value;
  wire();
  refresh();
  if (engineToMove()) go('play');
  window.chariotPage = { state, engine, rules, info: () => info, pgnText, searching, expect };
  document.body.dataset.ready = 'true';
}

main();
