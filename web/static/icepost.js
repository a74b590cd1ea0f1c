// icepost's one script. Every page works without it; it adds:
//  - on a game, the ← → keys (and Home, End) step through the moves: the
//    page of the next ply is fetched and its board, status and move list
//    swapped in, the address following along; the focus stays on the
//    control used (a step link, a move), and the status of the new ply is
//    said in a live region (#announce) for screen readers;
//  - on the games by mail, the page updates itself when a move lands
//    (server-sent events from /live/events).
(function () {
	"use strict";
	function swap(url, ids, push) {
		return fetch(url, { headers: { "Accept": "text/html" } }).then(function (r) {
			if (!r.ok) { throw new Error(r.status); }
			return r.text();
		}).then(function (html) {
			var doc = new DOMParser().parseFromString(html, "text/html");
			ids.forEach(function (id) {
				var now = document.getElementById(id), next = doc.getElementById(id);
				if (now && next) { now.replaceWith(next); }
			});
			if (push) { history.replaceState(null, "", url); }
			document.title = doc.title;
		});
	}

	// Stepping through a game.
	var busy = false;
	// focusKey names the focused control so that the same one can be found
	// in the page swapped in: a step link by its data-rel, a move by its
	// data-ply; "" when the focus is elsewhere.
	function focusKey() {
		var e = document.activeElement;
		if (!e || !e.closest) { return ""; }
		if (e.closest("#play nav.step") && e.dataset.rel) { return '#play nav.step [data-rel="' + e.dataset.rel + '"]'; }
		if (e.closest("#moves") && e.dataset.ply) { return '#moves [data-ply="' + e.dataset.ply + '"]'; }
		return "";
	}
	function go(url) {
		if (busy) { return; }
		busy = true;
		var key = focusKey();
		swap(url, ["play", "moves"], true).then(function () {
			if (key) {
				var e = document.querySelector(key);
				if (e) { e.focus({ preventScroll: true }); }
			}
			var status = document.getElementById("status"), say = document.getElementById("announce");
			if (status && say) { say.textContent = status.textContent; }
		}).catch(function () { location.href = url; })
			.finally(function () { busy = false; });
	}
	function step(rel) {
		var a = document.querySelector('#play a[rel="' + rel + '"]');
		if (!a || busy) { return false; }
		go(a.href);
		return true;
	}
	document.addEventListener("keydown", function (e) {
		if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
		var t = e.target && e.target.tagName;
		if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA") { return; }
		var rel = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" }[e.key];
		if (rel && document.getElementById("play") && step(rel)) { e.preventDefault(); }
	});
	document.addEventListener("click", function (e) {
		var a = e.target.closest && e.target.closest("#moves a.mv, #play nav.step a");
		if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
		e.preventDefault();
		go(a.href);
	});

	// The games by mail.
	if (window.EventSource && (document.getElementById("live") || document.getElementById("live-watch"))) {
		var seen = null;
		var es = new EventSource("/live/events");
		es.addEventListener("games", function (e) {
			if (seen !== null && e.data !== seen) {
				if (document.getElementById("live")) {
					swap(location.href, ["live"], false);
				} else if (!/[?&]ply=/.test(location.search)) {
					swap(location.href, ["play", "moves"], false);
				}
			}
			seen = e.data;
		});
	}
})();
