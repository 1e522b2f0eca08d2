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
  // No passage is no context (left out); the service refuses an empty list as an empty retrieval.
  const request = { question: $("question").value, answer: $("answer").value, refs, options };
  return context.length ? { ...request, context } : request;
}

function score(value) {
  return value === null || value === undefined ? "n/a" : value.toFixed(2);
}

// Every text about a verdict is made by the server (factjudge/explain.py) and sent with it.
function uncertain(verdict) {
  return Boolean(verdict.uncertain);
}

function why(verdict) {
  return verdict.why || "";
}

function verdictTitle(verdict) {
  let title = LABELS[verdict.label] || verdict.label;
  if (verdict.error_score !== null) title += ` (error score ${score(verdict.error_score)})`;
  if (why(verdict)) title += ` — ${why(verdict)}`;
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

const EXCERPT_CHARS = 220;

// The passage sentence the verdict rests on (chosen by the judge), trimmed.
function restsOn(verdict, passage) {
  const sentence = ((verdict.grounds && verdict.grounds.passage) || passage).replace(/\s+/g, " ").trim();
  return sentence.length <= EXCERPT_CHARS ? sentence : sentence.slice(0, EXCERPT_CHARS - 1).trimEnd() + "…";
}

function evidenceBlock(verdict) {
  const evidence = verdict.evidence;
  if (verdict.label === "not_checkable") return null;
  if (!evidence.length) {
    return el("div", { class: "muted no-evidence", text: "no passage: checked against no source" });
  }
  const first = evidence[0];
  const where = first.title || first.url || first.source;
  const made = first.verified ? "" : " (model-generated)";
  const box = el("div", { class: "evidence" },
    el("div", { class: "muted", text: `evidence: ${first.source}${where !== first.source ? " · " + where : ""}${made}` }),
    el("blockquote", { class: "passage", text: restsOn(verdict, first.text) }));
  const more = evidence.length > 1 ? ` (${evidence.length} passages)` : "";
  const details = el("details", {}, el("summary", { text: `whole passages${more}` }));
  evidence.forEach((ev, n) => {
    const origin = ev.url || ev.title || ev.source;
    details.append(el("pre", {}, `[${n + 1}] ${origin}${ev.verified ? "" : " (model-generated)"}\n${ev.text}`));
  });
  box.append(details);
  return box;
}

// Evidence asked for that did not come (the model replied UNKNOWN to --evidence llm).
function evidenceNote(note) {
  return el("div", { class: "muted evidence-note", text: `evidence: ${note}` });
}

function badge(verdict) {
  const text = (LABELS[verdict.label] || verdict.label) + (uncertain(verdict) ? " (uncertain)" : "");
  return el("span", { class: `badge verdict-${verdict.label}${uncertain(verdict) ? " uncertain" : ""}`, text });
}

function renderSegments(result) {
  const list = $("segments");
  list.replaceChildren();
  const claimVerdicts = new Map(result.claim_verdicts.map((v) => [v.target_id, v]));
  result.segments.forEach((seg, i) => {
    const verdict = result.segment_verdicts[i];
    const item = el("li", { "data-verdict": verdict.label, class: "segment" },
      badge(verdict), seg.text, el("span", { class: "muted", text: verdict.score_note ? ` ${verdict.score_note}` : "" }));
    if (why(verdict)) item.append(el("div", { class: "why", text: why(verdict) }));
    const claims = result.claims.filter((c) => c.segment_id === seg.id);
    if (claims.length) {
      const ul = el("ul", { class: "claims" });
      for (const claim of claims) {
        const cv = claimVerdicts.get(claim.id);
        const li = el("li", { class: "claim", "data-verdict": cv ? cv.label : "not_checkable" },
          cv ? badge(cv) : null, claim.text,
          cv ? el("span", { class: "muted", text: cv.score_note ? ` ${cv.score_note}` : "" }) : null);
        if (cv && why(cv)) li.append(el("div", { class: "why", text: why(cv) }));
        if (cv && cv.evidence_note) li.append(evidenceNote(cv.evidence_note));
        const cev = cv ? evidenceBlock(cv) : null;
        if (cev) li.append(cev);
        ul.append(li);
      }
      item.append(ul);
    }
    if (verdict.evidence_note) item.append(evidenceNote(verdict.evidence_note));
    // With claims, each claim shows the passage it rests on; the segment's own only without them.
    const ev = claims.length ? null : evidenceBlock(verdict);
    if (ev) item.append(ev);
    list.append(item);
  });
}

function showModelNote(note) {
  $("model-note").textContent = note || "";
  $("model-note").hidden = !note;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Where evidence came from, as a person names it.
const SOURCES = {
  context: "the context you gave", wikipedia: "Wikipedia", kb: "the knowledge base", web: "web search",
  link: "the linked pages", llm: "passages the model wrote (not checked)",
};

// The items the summary counts: the claims when the check judged claims, else the segments.
function judgedItems(result) {
  return result.claim_verdicts.length ? result.claim_verdicts : result.segment_verdicts;
}

// What the verdicts rest on: each source with how many items read it; items that read none rest
// on the model's own knowledge (or, for a model-free scorer, on nothing).
function basis(result, asked) {
  const counts = new Map();
  for (const v of judgedItems(result)) {
    if (v.label === "not_checkable") continue;
    const names = [...new Set(v.evidence.map((e) => SOURCES[e.source] || e.source))];
    if (!names.length) {
      names.push(v.label === "unverified" ? "no passage found (left unverified)" : "the model's own knowledge (no passage)");
    }
    for (const name of names) counts.set(name, (counts.get(name) || 0) + 1);
  }
  const parts = [...counts].map(([name, n]) => `${name}: ${plural(n, "item")}`);
  const lead = asked.context ? "Checked against " : "No context was given. Checked against ";
  return parts.length ? `${lead}${parts.join("; ")}.` : "No item was checkable.";
}

// Counts per label; unverified items are neither supported nor false and are said apart.
function tally(result) {
  const n = (label) => judgedItems(result).filter((v) => v.label === label).length;
  const supported = n("true"), wrong = n("false"), open = n("unverified");
  const parts = [`${supported} supported`, `${wrong} false`];
  if (open) parts.push(`${open} unverified (not enough evidence either way; not counted as supported)`);
  if (n("unparseable")) parts.push(`${n("unparseable")} unparseable`);
  if (n("not_checkable")) parts.push(`${n("not_checkable")} not checkable`);
  const kind = result.claim_verdicts.length ? "claims" : "segments";
  const decided = supported + wrong;
  const share = decided
    ? ` ${supported} of the ${plural(decided, "item")} labelled true or false ${supported === 1 ? "is" : "are"} ` +
      `supported (${Math.round((supported / decided) * 100)}%).`
    : "";
  return `${kind}: ${parts.join(", ")}.${share}`;
}

// What ran, and what the planner had decided when it differs (or why it fell back).
function ran(result) {
  const plan = result.plan || {};
  let text = `ran ${result.strategy}/${result.granularity} by ${result.model}`;
  const planned = plan.strategy && (plan.strategy !== result.strategy || plan.granularity !== result.granularity);
  if (planned) text += ` (planned ${plan.strategy}/${plan.granularity})`;
  if (result.fallbacks && result.fallbacks.length) text += `; fallback: ${result.fallbacks.join("; ")}`;
  return text;
}

function usageText(usage) {
  const cached = usage.cached_calls ? ` (${usage.cached_calls} from cache)` : "";
  return `${plural(usage.calls, "model call")}${cached}.`;
}

function renderResult(result, asked) {
  showModelNote(result.model_note);
  $("tally").replaceChildren(
    "Answer: ", el("span", { id: "answer-label", class: `badge verdict-${result.label}`, text: LABELS[result.label] }),
    ` ${tally(result)}`);
  $("basis").textContent = basis(result, asked);
  $("ran").textContent = `This check ${ran(result)}; ${usageText(result.usage)}`;
  $("last-run").textContent = `Last check: ${ran(result)}.`;
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
    const asked = buildRequest();
    const response = await fetch("/v1/check", {
      method: "POST", headers: headers(), body: JSON.stringify(asked),
    });
    if (!response.ok) {
      showError(await errorMessage(response));
      $("status").textContent = "";
      return;
    }
    renderResult(await response.json(), asked);
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
  // What the planner decides for this model: a check with a context runs another strategy.
  const alone = info.plan || { strategy: info.strategy }, withContext = info.plan_with_context || { strategy: info.strategy_with_context };
  const fallback = alone.if_no_evidence && alone.if_no_evidence !== alone.strategy
    ? ` (${alone.if_no_evidence} when no passage is found)` : "";
  $("model-line").textContent = `Model: ${info.model}. Without a context a check runs ${alone.strategy}${fallback}; ` +
    `with a context, ${withContext.strategy}; ${info.granularity} level unless you choose.`;
  // The service's strategy registry, so a new strategy shows here without editing the page.
  const select = $("strategy");
  select.replaceChildren(select.options[0]);
  for (const name of info.strategies) {
    const free = info.model_free_strategies.includes(name) ? " (no model)" : "";
    select.add(new Option(name + free, name));
  }
  showModelNote(info.model_note);
}

// "Only the context counts" means nothing without a context: off and greyed until one is given.
function syncGrounded() {
  const box = $("grounded"), empty = splitPassages($("context").value).length === 0;
  if (empty === box.disabled) return;
  if (empty) { box.dataset.chosen = String(box.checked); box.checked = false; }
  else if (box.dataset.chosen) box.checked = box.dataset.chosen === "true";
  box.disabled = empty;
  $("grounded-label").classList.toggle("disabled", empty);
  $("grounded-label").title = empty ? "give a context first" : "";
}

$("check-form").addEventListener("submit", onSubmit);
$("context").addEventListener("input", syncGrounded);
syncGrounded();
$("api-key").addEventListener("change", () => { loadInfo().catch(() => {}); });
loadInfo().catch(() => {});
