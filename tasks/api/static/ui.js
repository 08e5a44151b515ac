// The memory page's actions. Every text from the store is set with textContent, never as HTML.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const root = document.getElementById("memories");

  async function call(method, url, body) {
    const response = await fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) {
      let detail = response.statusText;
      try { detail = (await response.json()).detail || detail; } catch (e) { /* not JSON */ }
      throw new Error(typeof detail === "string" ? detail : JSON.stringify(detail));
    }
    return response.json();
  }

  function fail(error) { window.alert("Could not do that: " + error.message); }

  const erase = document.getElementById("erase-confirm");
  if (erase && root) {
    const button = document.getElementById("erase-button");
    erase.addEventListener("input", function () { button.disabled = erase.value !== root.dataset.user; });
  }

  if (!root) { return; }
  const api = root.dataset.api;
  const memoryUrl = function (id) { return api + "/memories/" + encodeURIComponent(id); };
  const picks = Array.from(root.querySelectorAll("input.pick"));
  const bulk = document.getElementById("bulk-delete");
  const selected = document.getElementById("selected-count");

  function chosen() { return picks.filter(function (p) { return p.checked; }).map(function (p) { return p.value; }); }
  picks.forEach(function (p) {
    p.addEventListener("change", function () {
      const n = chosen().length;
      bulk.disabled = n === 0;
      selected.textContent = n ? n + " selected" : "";
    });
  });
  bulk.addEventListener("click", function () {
    const ids = chosen();
    if (!ids.length || !window.confirm("Delete " + ids.length + " selected memories?")) { return; }
    call("POST", api + "/memories:bulk-delete", {ids: ids}).then(function () { location.reload(); }, fail);
  });

  root.querySelectorAll("li.memory").forEach(function (item) {
    const id = item.dataset.id;
    const form = item.querySelector(".edit-form");
    const text = form.querySelector("textarea");
    item.querySelector("button.edit").addEventListener("click", function () {
      form.hidden = false;
      text.focus();
    });
    form.querySelector(".cancel").addEventListener("click", function () { form.hidden = true; });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      call("PUT", memoryUrl(id), {content: text.value}).then(function () { location.reload(); }, fail);
    });
    text.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { form.hidden = true; }
    });
    item.querySelector("button.delete").addEventListener("click", function () {
      const point = item.querySelector(".point").textContent;
      if (!window.confirm("Delete this memory?\n\n" + point)) { return; }
      call("DELETE", memoryUrl(id)).then(function () { location.reload(); }, fail);
    });
    const details = item.querySelector("details.session");
    details.addEventListener("toggle", function () {
      const box = details.querySelector(".turns");
      if (!details.open || box.dataset.loaded) { return; }
      box.dataset.loaded = "1";
      call("GET", details.dataset.history).then(function (history) {
        const list = document.createElement("ul");
        history.sources.forEach(function (source) {
          const head = document.createElement("li");
          head.textContent = source.summary;
          list.appendChild(head);
          source.sentences.forEach(function (sentence) {
            const li = document.createElement("li");
            li.className = "turn";
            li.textContent = "“" + sentence.text + "” (" + sentence.source_event_ids.join(", ") + ")";
            list.appendChild(li);
          });
        });
        if (!history.sources.length) { list.textContent = "The session's turns are kept in its source only."; }
        box.appendChild(list);
      }, fail);
    });
  });
})();
