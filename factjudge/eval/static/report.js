"use strict";
// Draws the judged answers of the report from the JSON beside this script. No server, no
// innerHTML: every text goes in through textContent, so nothing in a result can run.
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const PER_PAGE = 50;
  const setupSelect = document.getElementById("setup");
  const filterSelect = document.getElementById("filter");
  const list = document.getElementById("items");
  let page = 0;

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function shown() {
    const setup = Number(setupSelect.value);
    const filter = filterSelect.value;
    return data.items.filter((it) => it.s === setup &&
      (filter === "all" || [...filter].some((flag) => it.flags.includes(flag))));
  }

  function segClass(seg) {
    return "seg seg-" + seg.pred + (seg.gold ? " gold-" + seg.gold : "");
  }

  function segTitle(seg) {
    return "segment " + seg.id + ": gold " + (seg.gold || "unlabelled") + ", predicted " + seg.pred;
  }

  function inside(spans, a, b) {
    return spans.some((s) => s[0] <= a && b <= s[1]);
  }

  // The answer cut at every segment, judge-span and gold-span boundary; runs of equal marking joined.
  function answerNode(example, item) {
    const text = example.answer;
    const located = item.segments.filter((s) => s.start >= 0 && s.end <= text.length);
    const cuts = new Set([0, text.length]);
    for (const s of located) { cuts.add(s.start); cuts.add(s.end); }
    for (const s of item.marks.concat(example.spans)) {
      cuts.add(Math.max(0, Math.min(text.length, s[0])));
      cuts.add(Math.max(0, Math.min(text.length, s[1])));
    }
    const points = [...cuts].sort((x, y) => x - y);
    const runs = [];
    for (let i = 0; i + 1 < points.length; i++) {
      const a = points[i], b = points[i + 1];
      const seg = located.find((s) => s.start <= a && b <= s.end) || null;
      const err = inside(item.marks, a, b), gold = inside(example.spans, a, b);
      const last = runs[runs.length - 1];
      if (last && last.seg === seg && last.err === err && last.gold === gold) last.b = b;
      else runs.push({ a, b, seg, err, gold });
    }
    const p = el("p", "answer");
    p.dir = "auto";  // Arabic and Hebrew answers read right to left
    let holder = null, holderSeg = null, atBreak = true;
    for (const run of runs) {
      // A paragraph break (blank lines, spaces around) reads as one line break, not a gap.
      let piece = text.slice(run.a, run.b).replace(/[ \t]*(\r?\n[ \t]*)+/g, "\n");
      if (atBreak && piece.startsWith("\n")) piece = piece.slice(1);
      if (piece) atBreak = piece.endsWith("\n");
      let node = document.createTextNode(piece);
      if (run.gold) { const g = el("span", "gold-span"); g.title = "annotators: wrong"; g.appendChild(node); node = g; }
      if (run.err) { const m = el("mark", "err"); m.title = "judge: wrong"; m.appendChild(node); node = m; }
      if (!run.seg) { p.appendChild(node); holder = null; holderSeg = null; continue; }
      if (holderSeg !== run.seg) {
        holder = el("span", segClass(run.seg));
        holder.title = segTitle(run.seg);
        holder.dataset.verdict = run.seg.pred;
        holder.dataset.gold = run.seg.gold || "";
        p.appendChild(holder);
        holderSeg = run.seg;
      }
      holder.appendChild(node);
    }
    return p;
  }

  function unlocatedNode(item) {
    const missing = item.segments.filter((s) => s.start < 0);
    if (!missing.length) return null;
    const box = el("div");
    box.appendChild(el("div", "meta", "segments not found in the answer, shown as the dataset gives them:"));
    const ul = el("ul", "unlocated");
    for (const seg of missing) {
      const li = el("li");
      const span = el("span", segClass(seg) + " seg-unlocated", seg.text);
      span.title = segTitle(seg);
      span.dataset.verdict = seg.pred;
      span.dataset.gold = seg.gold || "";
      li.appendChild(span);
      ul.appendChild(li);
    }
    box.appendChild(ul);
    return box;
  }

  function detailsNode(example, item) {
    const details = el("details", "why");
    details.appendChild(el("summary", null, "labels, rationale and evidence"));
    if (example.question) details.appendChild(el("p", "meta", "question: " + example.question));
    const segText = (s) => (s.start >= 0 ? example.answer.slice(s.start, s.end) : s.text);
    const rows = item.segments.map((s) => ["segment " + s.id, segText(s), s.gold, s.pred, s.es, s.why, s.src])
      .concat(item.claims.map((c) => ["claim of segment " + c.segment, c.text, c.gold, c.pred, c.es, c.why, c.src]));
    const table = el("table", "items");
    const head = el("tr");
    const names = ["item", "text", "gold label", "predicted label", "error score", "rationale, or the rule that made the label", "rests on"];
    for (const name of names) head.appendChild(el("th", null, name));
    table.appendChild(head);
    for (const row of rows) {
      const tr = el("tr");
      row.forEach((cell, i) => tr.appendChild(el("td", i === 2 || i === 3 ? "lbl" : null, cell === null ? "unlabelled" : cell)));
      table.appendChild(tr);
    }
    const wrap = el("div", "table-wrap");
    wrap.appendChild(table);
    details.appendChild(wrap);
    if (item.evidence.length) {
      details.appendChild(el("div", "meta", "evidence the judge read:"));
      for (const [source, where, text] of item.evidence.map((i) => data.passages[i])) {
        details.appendChild(el("div", "evidence", "[" + source + (where ? " · " + where : "") + "] " + text));
      }
    } else {
      details.appendChild(el("div", "meta", "no evidence: the judge read none"));
    }
    return details;
  }

  function itemNode(item) {
    const example = data.examples[item.e];
    const box = el("div", "item");
    box.dataset.example = example.id;
    box.dataset.setup = data.setups[item.s];
    box.dataset.setupLabel = data.setup_labels[item.s];
    box.dataset.flags = item.flags;
    const score = item.score === null ? "" : " (error score " + item.score.toFixed(2) + ")";
    box.appendChild(el("div", "meta", example.id + " · " + (example.domain || "-") + " / " +
      (example.language || "-") + " · gold label: " + (example.gold || "unlabelled") +
      " · predicted label: " + item.label + score));
    box.appendChild(answerNode(example, item));
    const missing = unlocatedNode(item);
    if (missing) box.appendChild(missing);
    box.appendChild(detailsNode(example, item));
    return box;
  }

  function draw() {
    const items = shown();
    const pages = Math.max(1, Math.ceil(items.length / PER_PAGE));
    page = Math.min(page, pages - 1);
    const first = page * PER_PAGE;
    const part = items.slice(first, first + PER_PAGE);
    list.replaceChildren(...part.map(itemNode));
    document.getElementById("page-info").textContent = items.length
      ? "answers " + (first + 1) + "–" + (first + part.length) + " of " + items.length + " (page " + (page + 1) + " of " + pages + ")"
      : "no answers match";
    document.getElementById("prev").disabled = page === 0;
    document.getElementById("next").disabled = page >= pages - 1;
  }

  function countFilters() {
    const setup = Number(setupSelect.value);
    const mine = data.items.filter((it) => it.s === setup);
    for (const option of filterSelect.options) {
      const base = option.dataset.name || option.textContent;
      option.dataset.name = base;
      const n = option.value === "all" ? mine.length
        : mine.filter((it) => [...option.value].some((flag) => it.flags.includes(flag))).length;
      option.textContent = base + " (" + n + ")";
    }
  }

  data.setups.forEach((name, i) => {
    const label = data.setup_labels[i];
    const option = el("option", null, label + " (" + data.items.filter((it) => it.s === i).length + " answers)");
    option.value = String(i);
    option.title = name;  // the id the run's files key it by
    setupSelect.appendChild(option);
  });
  setupSelect.addEventListener("change", () => { page = 0; countFilters(); draw(); });
  filterSelect.addEventListener("change", () => { page = 0; draw(); });
  document.getElementById("prev").addEventListener("click", () => { page -= 1; draw(); });
  document.getElementById("next").addEventListener("click", () => { page += 1; draw(); });
  countFilters();
  draw();
})();
