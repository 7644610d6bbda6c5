// The web interface's small script. Pages work without it; it adds search-as-you-type to the
// related-object pickers and "select all" to list tables.
(function () {
  'use strict';

  function debounce(fn, ms) {
    var timer;
    return function () {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  /** Asks the select's list endpoint (the API, with the session) for objects matching the typed term. */
  function search(select, term) {
    var url = new URL(select.dataset.api, window.location.origin);
    url.searchParams.set('limit', '50');
    url.searchParams.set('depth', '1');
    if (select.dataset.query) select.dataset.query.split('&').forEach(function (pair) {
      var at = pair.indexOf('=');
      if (at > 0) url.searchParams.append(pair.slice(0, at), pair.slice(at + 1));
    });
    if (term && select.dataset.term) url.searchParams.set(select.dataset.term, term);
    select.setAttribute('aria-busy', 'true');
    return fetch(url, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : { results: [] }; })
      .then(function (body) { fill(select, body.results || []); })
      .finally(function () { select.removeAttribute('aria-busy'); });
  }

  /** An object's name, with the device or virtual machine it belongs to (interfaces share names across devices). */
  function label(r) {
    var text = r.display || r.name || String(r.id);
    var owner = r.device || r.virtual_machine;
    return owner && owner.display && text.indexOf(owner.display) < 0 ? text + ' (' + owner.display + ')' : text;
  }

  /** Keeps the chosen options, replaces the others with the matches. */
  function fill(select, results) {
    var keep = {};
    Array.prototype.slice.call(select.options).forEach(function (o) {
      if (o.selected && o.value) keep[o.value] = true;
      else if (o.value) o.remove();
    });
    results.forEach(function (r) {
      var id = String(r.id);
      if (keep[id]) return;
      var option = document.createElement('option');
      option.value = id;
      option.textContent = label(r);
      select.appendChild(option);
    });
    select.dispatchEvent(new CustomEvent('picker:loaded', { bubbles: true }));
  }

  function initPicker(input) {
    var select = document.getElementById(input.dataset.pickerFor);
    if (!select) return;
    var loaded = false;
    var run = debounce(function () { search(select, input.value.trim()); }, 200);
    input.addEventListener('input', run);
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') { e.preventDefault(); search(select, input.value.trim()); }
      if (e.key === 'ArrowDown') { e.preventDefault(); select.focus(); }
    });
    function first() { if (!loaded) { loaded = true; search(select, ''); } }
    select.addEventListener('focus', first);
    select.addEventListener('mousedown', first);
  }

  function initSelectAll(box) {
    box.addEventListener('change', function () {
      var table = box.closest('table');
      table.querySelectorAll('tbody input[name="pk"]').forEach(function (c) { c.checked = box.checked; });
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('input[data-picker-for]').forEach(initPicker);
    document.querySelectorAll('input[data-select-all]').forEach(initSelectAll);
  });
})();
