"use strict";
// Renders a CheckResult from POST /v1/check. All text goes in through textContent, never as HTML.

const LABELS = {
  true: "true", false: "false", unverified: "unverified", not_checkable: "not checkable", unparseable: "unparseable",
};

function $(id) { return document.getElementById(id); }

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function headers() {
  const h = { "Content-Type": "application/json" };
  const key = $("api-key").value.trim();
  if (key) h["X-API-Key"] = key;
  return h;
}

function showError(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

async function errorMessage(response) {
  try {
    const body = await response.json();
    if (body && body.error && body.error.message) return `${response.status}: ${body.error.message}`;
  } catch (_) { /* not JSON: fall through */ }
  return `${response.status}: ${response.statusText || "request failed"}`;
}

function splitPassages(text) {
  return text.split(/^\s*---\s*$/m).map((p) => p.trim()).filter((p) => p.length > 0);
}

function buildRequest() {
  const context = splitPassages($("context").value);
  const refs = $("links").value.split("\n").map((l) => l.trim()).filter((l) => l.length > 0);
  const options = {};
  if ($("strategy").value) options.strategy = $("strategy").value;
  if ($("granularity").value) options.granularity = $("granularity").value;
  if (context.length) options.grounded = $("grounded").checked;
  return { question: $("question").value, answer: $("answer").value, context, refs, options };
}

function score(value) {
  return value === null || value === undefined ? "n/a" : value.toFixed(2);
}

function verdictTitle(verdict) {
  let title = LABELS[verdict.label] || verdict.label;
  if (verdict.error_score !== null) title += ` (error score ${score(verdict.error_score)})`;
  if (verdict.rationale) title += ` — ${verdict.rationale}`;
  return title;
}

// Located error spans of false verdicts: the exact words the judge quoted as wrong.
function errorSpans(result) {
  return [...result.segment_verdicts, ...result.claim_verdicts]
    .filter((v) => v.label === "false")
    .flatMap((v) => v.spans || [])
    .filter((s) => s.located)
    .sort((a, b) => a.start - b.start);
}

function markSpans(chars, seg, spans) {
  const parts = [];
  let at = seg.start;
  for (const span of spans) {
    if (span.start < at || span.end > seg.end) continue;
    if (span.start > at) parts.push(chars.slice(at, span.start).join(""));
    const title = span.probability === null ? "quoted as wrong" : `quoted as wrong (p ${score(span.probability)})`;
    parts.push(el("mark", { class: "err", title }, chars.slice(span.start, span.end).join("")));
    at = span.end;
  }
  parts.push(chars.slice(at, seg.end).join(""));
  return parts;
}

function renderAnswer(result) {
  // Offsets count code points (Python), so slice an array of code points, not UTF-16 units.
  const chars = Array.from(result.answer);
  const box = $("rendered-answer");
  box.replaceChildren();
  let at = 0;
  result.segments.forEach((seg, i) => {
    const verdict = result.segment_verdicts[i];
    if (seg.start > at) box.append(chars.slice(at, seg.start).join(""));
    box.append(el("span", {
      class: `seg verdict-${verdict.label}`, "data-verdict": verdict.label,
      "data-segment": String(seg.id), title: verdictTitle(verdict),
    }, ...markSpans(chars, seg, errorSpans(result))));
    at = Math.max(at, seg.end);
  });
  if (at < chars.length) box.append(chars.slice(at).join(""));
}

function evidenceBlock(evidence, label) {
  if (label === "not_checkable") return null;
  if (!evidence.length) {
    return el("div", { class: "muted no-evidence", text: "no passage: checked against no source" });
  }
  const first = evidence[0].title || evidence[0].url || evidence[0].source;
  const more = evidence.length > 1 ? ` (+${evidence.length - 1} more)` : "";
  const details = el("details", {}, el("summary", { text: `evidence: ${first}${more}` }));
  evidence.forEach((ev, n) => {
    const origin = ev.url || ev.title || ev.source;
    details.append(el("pre", {}, `[${n + 1}] ${origin}${ev.verified ? "" : " (model-generated)"}\n${ev.text}`));
  });
  return details;
}

// Evidence asked for that did not come (the model replied UNKNOWN to --evidence llm).
function evidenceNote(note) {
  return el("div", { class: "muted evidence-note", text: `evidence: ${note}` });
}

function badge(verdict) {
  return el("span", { class: `badge verdict-${verdict.label}`, text: LABELS[verdict.label] || verdict.label });
}

function renderSegments(result) {
  const list = $("segments");
  list.replaceChildren();
  const claimVerdicts = new Map(result.claim_verdicts.map((v) => [v.target_id, v]));
  result.segments.forEach((seg, i) => {
    const verdict = result.segment_verdicts[i];
    const item = el("li", { "data-verdict": verdict.label, class: "segment" },
      badge(verdict), seg.text, el("span", { class: "muted", text: ` error score ${score(verdict.error_score)}` }));
    if (verdict.rationale) item.append(el("div", { class: "why", text: verdict.rationale }));
    const claims = result.claims.filter((c) => c.segment_id === seg.id);
    if (claims.length) {
      const ul = el("ul", { class: "claims" });
      for (const claim of claims) {
        const cv = claimVerdicts.get(claim.id);
        const li = el("li", { class: "claim", "data-verdict": cv ? cv.label : "not_checkable" },
          cv ? badge(cv) : null, claim.text,
          cv ? el("span", { class: "muted", text: ` error score ${score(cv.error_score)}` }) : null);
        if (cv && cv.rationale) li.append(el("div", { class: "why", text: cv.rationale }));
        if (cv && cv.evidence_note) li.append(evidenceNote(cv.evidence_note));
        ul.append(li);
      }
      item.append(ul);
    }
    if (verdict.evidence_note) item.append(evidenceNote(verdict.evidence_note));
    const ev = evidenceBlock(verdict.evidence, verdict.label);
    if (ev) item.append(ev);
    list.append(item);
  });
}

function showModelNote(note) {
  $("model-note").textContent = note || "";
  $("model-note").hidden = !note;
}

function renderResult(result) {
  showModelNote(result.model_note);
  const judged = result.score === null ? "no checkable items" : `${Math.round(result.score * 100)}% of judged items supported`;
  $("summary").replaceChildren(
    "Answer: ", el("span", { id: "answer-label", class: `badge verdict-${result.label}`, text: LABELS[result.label] }),
    ` ${judged}; ${result.strategy}/${result.granularity} by ${result.model}; ` +
    `${result.usage.calls} model calls.`);
  renderAnswer(result);
  renderSegments(result);
  $("result").hidden = false;
}

async function onSubmit(event) {
  event.preventDefault();
  $("error").hidden = true;
  const button = $("check-button");
  button.disabled = true;
  $("status").textContent = "checking…";
  try {
    const response = await fetch("/v1/check", {
      method: "POST", headers: headers(), body: JSON.stringify(buildRequest()),
    });
    if (!response.ok) {
      showError(await errorMessage(response));
      $("status").textContent = "";
      return;
    }
    renderResult(await response.json());
    $("status").textContent = "done";
  } catch (err) {
    showError(`the service could not be reached: ${err}`);
    $("status").textContent = "";
  } finally {
    button.disabled = false;
  }
}

async function loadInfo() {
  const response = await fetch("/v1/info", { headers: headers() });
  if (response.status === 401) {
    $("model-line").textContent = "This service needs an API key: enter it below.";
    return;
  }
  if (!response.ok) return;
  const info = await response.json();
  $("model-line").textContent = `Model: ${info.model}; default strategy ${info.strategy} ` +
    `(${info.strategy_with_context} with a context), ${info.granularity} level.`;
  // The service's strategy registry, so a new strategy shows here without editing the page.
  const select = $("strategy");
  select.replaceChildren(select.options[0]);
  for (const name of info.strategies) {
    const free = info.model_free_strategies.includes(name) ? " (no model)" : "";
    select.add(new Option(name + free, name));
  }
  showModelNote(info.model_note);
}

$("check-form").addEventListener("submit", onSubmit);
$("api-key").addEventListener("change", () => { loadInfo().catch(() => {}); });
loadInfo().catch(() => {});
