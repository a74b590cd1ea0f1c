// icepost's one script. Every page works without it; it adds:
//  - on a game, the ← → keys (and Home, End) step through the moves (or
//    through the engine's line, when the board shows it): the
//    page of the next ply is fetched and its board, status and move list
//    swapped in, the address following along; the focus stays on the
//    control used (a step link, a move), and the status of the new ply is
//    said in a live region (#announce) for screen readers;
//  - on the games by mail and a tournament's page, the page updates
//    itself when a move lands (server-sent events from /live/events);
//  - on a play page, a move is picked on the board: a cell with moves
//    from it, then where it goes, or in the list (see "Picking a move"
//    below); the board after it takes the board's place, kept in view.
(function () {
	"use strict";
	// swap replaces the elements ids with those of the page at url;
	// keep(doc), when given and true, leaves the page as it is.
	function swap(url, ids, push, keep) {
		return fetch(url, { headers: { "Accept": "text/html" } }).then(function (r) {
			if (!r.ok) { throw new Error(r.status); }
			return r.text();
		}).then(function (html) {
			var doc = new DOMParser().parseFromString(html, "text/html");
			if (keep && keep(doc)) { return; }
			ids.forEach(function (id) {
				var now = document.getElementById(id), next = doc.getElementById(id);
				if (now && next) { now.replaceWith(next); }
			});
			if (push) { history.replaceState(null, "", url); }
			document.title = doc.title;
			pickSetup();
		});
	}
	function say(text) {
		var a = document.getElementById("announce");
		if (a) { a.textContent = text; }
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
		if (e.closest("#analysis") && e.dataset.line) { return '#analysis [data-line="' + e.dataset.line + '"]'; }
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
		var a = e.target.closest && e.target.closest("#moves a.mv, #play nav.step a, #moves a.eval-move, #analysis a.line-mv, #analysis a.line-go, #analysis a.line-back");
		if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
		e.preventDefault();
		// An SVG link's href is an SVGAnimatedString (the graph's moves).
		go(typeof a.href === "string" ? a.href : new URL(a.href.baseVal, location.href).href);
	});

	// Picking a move on the board (the play page). The board has a
	// handle on each cell (data-cell); the page's form names the moves'
	// address (data-moves), whose JSON gives the moves by the cell they
	// start from, each with the cells it ends on and the words for them.
	// A cell with moves becomes a button: picked, its targets are marked
	// and become buttons too; a target picked chooses its moves in the
	// form's list (only those, when several end there) and shows the board
	// after the first, drawn by the server (data-after). A move chosen in
	// the list shows its board after too. The list chooses no move by
	// itself: its first entry is empty ("choose a move"). The form's Play
	// button plays the move chosen, as without the script. No rule of any
	// game is here.
	var pick = null; // the play page's state while a move is picked
	function pickSetup() {
		pick = null;
		var pf = document.querySelector("#play .playform[data-moves]");
		var sel = document.getElementById("move");
		if (!pf || !sel || !window.fetch) { return; }
		fetch(pf.dataset.moves, { headers: { "Accept": "application/json" } }).then(function (r) {
			if (!r.ok) { throw new Error(r.status); }
			return r.json();
		}).then(function (data) {
			var form = sel.form, ply = form && form.elements.ply;
			if (!data.toMove || !ply || String(data.ply) !== ply.value || !document.contains(pf)) { return; }
			var board = document.querySelector("#play div.board");
			if (!board || !board.querySelector("[data-cell]")) { return; }
			pick = {
				pf: pf, sel: sel, board: board, groups: {}, from: null, shown: null,
				options: Array.prototype.map.call(sel.options, function (o) { return [o.value, o.text]; }),
				status: (document.getElementById("status") || {}).textContent || ""
			};
			data.groups.forEach(function (g) { pick.groups[g.from] = g; });
			var hint = pf.querySelector(".pickhint");
			if (hint) { hint.hidden = false; }
			resetCells();
		}).catch(function () { pick = null; });
	}
	function handle(cell) {
		return pick.board.querySelector('[data-cell="' + cell + '"]');
	}
	// resetCells marks no cell and makes the cells with moves buttons.
	function resetCells() {
		pick.board.querySelectorAll("[data-cell]").forEach(function (h) {
			var g = pick.groups[h.dataset.cell];
			h.classList.remove("picked", "target");
			h.removeAttribute("aria-pressed");
			if (g) {
				h.setAttribute("role", "button");
				h.setAttribute("tabindex", "0");
				h.setAttribute("aria-label", g.label);
				h.classList.add("from");
			} else {
				h.removeAttribute("role");
				h.removeAttribute("tabindex");
				h.removeAttribute("aria-label");
			}
		});
		pick.from = null;
	}
	function pickCell(g) {
		resetCells();
		pick.from = g;
		var h = handle(g.from);
		h.classList.add("picked");
		h.setAttribute("aria-pressed", "true");
		g.targets.forEach(function (t) {
			var th = handle(t.cell);
			if (!th) { return; }
			th.classList.add("target");
			th.setAttribute("role", "button");
			th.setAttribute("tabindex", "0");
			th.setAttribute("aria-label", t.label);
		});
		say(g.label + ". " + g.targets.map(function (t) { return t.cell; }).join(", "));
	}
	// setOptions fills the list with entries [value, text] and chooses
	// the first.
	function setOptions(list) {
		var sel = pick.sel;
		while (sel.options.length) { sel.remove(0); }
		list.forEach(function (o) { sel.add(new Option(o[1], o[0])); });
		sel.selectedIndex = 0;
	}
	// keepInView scrolls the page to el when it is out of the window, or
	// partly out of it and small enough to fit: on a phone, the list is
	// under the board, and a move chosen there shows its board up there.
	function keepInView(el) {
		var r = el.getBoundingClientRect(), h = window.innerHeight || document.documentElement.clientHeight;
		if (r.top >= 0 && r.bottom <= h) { return; }
		if (r.height <= h) {
			el.scrollIntoView({ block: "nearest" });
		} else if (r.bottom < 0 || r.top > h) {
			el.scrollIntoView({ block: "start" });
		}
	}
	function pickTarget(t) {
		setOptions(t.moves.map(function (tok) { return [tok, tok]; }));
		showAfter(t.moves[0], t.moves.length > 1 ? t.label : "");
		if (t.moves.length > 1) { pick.sel.focus(); }
	}
	// showAfter puts the board after the move tok where the board is, and
	// the words that nothing is played yet.
	function showAfter(tok, words) {
		var url = pick.pf.dataset.after + "?move=" + encodeURIComponent(tok), p = pick;
		fetch(url, { headers: { "Accept": "application/json" } }).then(function (r) {
			if (!r.ok) { throw new Error(r.status); }
			return r.json();
		}).then(function (a) {
			if (pick !== p || p.sel.value !== a.move) { return; }
			var div = document.createElement("div");
			div.innerHTML = a.board;
			var next = div.firstElementChild;
			next.classList.add("after");
			var old = p.shown || p.board, focused = old.contains(document.activeElement);
			old.replaceWith(next);
			p.shown = next;
			keepInView(next);
			var st = document.getElementById("status");
			if (st) { st.textContent = a.status; }
			var back = p.pf.querySelector(".pickback");
			if (back) { back.hidden = false; }
			say((words ? words + ". " : "") + a.status);
			if (focused) {
				// The cell picked is gone with its board: the focus goes
				// to the button that plays the move.
				var play = p.sel.form.querySelector("button:not([type=button]):not([formmethod])");
				if (play) { play.focus(); }
			}
		}).catch(function () { say("The board after " + tok + " could not be drawn here: use See the board after it."); });
	}
	// unshow puts the board as it is back in place of a board after.
	function unshow() {
		var p = pick;
		p.shown.replaceWith(p.board);
		p.shown = null;
		var st = document.getElementById("status");
		if (st) { st.textContent = p.status; }
		p.pf.querySelector(".pickback").hidden = true;
	}
	// back puts the board as it is back, with the piece picked before,
	// and the list as it was, no move chosen.
	function back() {
		var p = pick;
		if (!p.shown) { return; }
		unshow();
		setOptions(p.options);
		var from = p.from;
		resetCells();
		if (from) {
			pickCell(from);
			handle(from.from).focus();
		} else {
			p.sel.focus();
		}
	}
	function activate(h) {
		var cell = h.dataset.cell, g = pick.groups[cell], from = pick.from;
		var t = from && from.targets.filter(function (t) { return t.cell === cell; })[0];
		// A cell whose only target is itself (a piece put there) plays at
		// once; a picked cell that is its own target (a piece turned
		// where it stands) too, when picked again.
		if (!t && g && g.targets.length === 1 && g.targets[0].cell === cell) { pickCell(g); t = g.targets[0]; }
		if (t) { pickTarget(t); return; }
		if (g && g !== from) { pickCell(g); return; }
		resetCells();
		say("");
	}
	document.addEventListener("click", function (e) {
		if (!pick || !e.target.closest) { return; }
		var h = e.target.closest("#play div.board [data-cell]");
		if (h && !pick.shown && pick.board.contains(h)) { activate(h); return; }
		if (e.target.closest(".playform .pickback")) { back(); }
	});
	document.addEventListener("keydown", function (e) {
		if (!pick || !e.target.closest) { return; }
		var h = e.target.closest("#play div.board [data-cell][role=button]");
		if (h && (e.key === "Enter" || e.key === " ")) {
			e.preventDefault();
			activate(h);
		} else if (e.key === "Escape" && (pick.from || pick.shown)) {
			if (pick.shown) { back(); } else { resetCells(); say(""); }
		}
	});
	document.addEventListener("change", function (e) {
		if (!pick || e.target !== pick.sel) { return; }
		if (pick.sel.value) {
			showAfter(pick.sel.value, "");
		} else if (pick.shown) {
			unshow();
		}
	});
	pickSetup();

	// The games by mail.
	// A page that may change says so (data-live); a finished
	// tournament's does not.
	if (window.EventSource && document.querySelector("[data-live]")) {
		var seen = null, es = null;
		var changed = function (e) {
			if (seen !== null && e.data !== seen) {
				if (document.getElementById("live")) {
					// Another game's move changes nothing here (a
					// tournament's page): the page stays as it is, its
					// tables scrolled where they were.
					swap(location.href, ["live"], false, function (doc) {
						var now = document.getElementById("live"), next = doc.getElementById("live");
						return now && next && now.innerHTML === next.innerHTML;
					});
				} else if (!/[?&]ply=/.test(location.search)) {
					// A move being picked stays, unless this game moved.
					// The line over the board that says whose move it is
					// (#lead) goes with the board, so that they agree.
					swap(location.href, ["lead", "play", "moves"], false, function (doc) {
						var now = document.getElementById("play"), next = doc.getElementById("play");
						return pick && (pick.from || pick.shown) && now && next && now.dataset.plies === next.dataset.plies &&
							next.querySelector(".playform[data-moves]");
					});
				}
			}
			seen = e.data;
		};
		var listen = function () {
			es = new EventSource("/live/events");
			es.addEventListener("games", changed);
		};
		listen();
		// A page left (kept in the browser's back-forward cache) lets
		// its stream go: each holds a connection, and a browser opens
		// six at most to a site, so a few pages left with theirs open
		// held up the next page's loading. Back on the page, it listens
		// again, and a change made meanwhile updates it at once.
		window.addEventListener("pagehide", function () {
			if (es) { es.close(); es = null; }
		});
		window.addEventListener("pageshow", function (e) {
			if (e.persisted && !es) { listen(); }
		});
	}
})();
