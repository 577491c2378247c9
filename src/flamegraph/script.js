// script.js - the interactive part of a trail flame graph, embedded in the
// SVG by svg.c (after a "var fgconf = {...}" line with the graph's settings).
//
// Frames are the children of <svg id="frames"> in depth-first pre-order, so
// a frame's subtree is the run of frames after it with a greater depth; the
// script reads them once into arrays and never measures text (labels are
// cut by arithmetic), which keeps zoom and resize fast on huge graphs.
//
// State lives in the URL fragment so a view can be shared:
//   #x=N     zoomed to frame N (pre-order index)
//   s=RE     search regular expression, i=1 case-insensitive
//   b=1      differential graph drawn with the "before" widths
"use strict";

var fg = {
	svg: null, frames: null, details: null, matched: null, unzoom: null,
	search: null, ignorecase: null, basis: null,
	f: [],			// per frame: {g, rect, text, name, title, depth, x, w, bx, bw, end, parent, fill, ty}
	zoomed: -1,		// frame index, -1 when not zoomed
	term: "",		// search regular expression source, "" when none
	icase: false,
	before: false,		// differential: draw before-widths
	marked: [],		// frames classed zshow while zoomed
	width: 0		// px of the frame area
};
var SVGNS = "http://www.w3.org/2000/svg";

function init(evt) {
	var d = document;
	fg.svg = d.documentElement;
	fg.frames = d.getElementById("frames");
	fg.details = d.getElementById("details").firstChild;
	fg.matched = d.getElementById("matched");
	fg.unzoom = d.getElementById("unzoom");
	fg.search = d.getElementById("search");
	fg.ignorecase = d.getElementById("ignorecase");
	fg.basis = d.getElementById("basis");
	fg.width = fgconf.width;
	readFrames();

	fg.frames.addEventListener("click", function (e) {
		var i = frameOf(e.target);
		if (i >= 0)
			zoom(i === 0 ? -1 : i);
	});
	fg.frames.addEventListener("mouseover", function (e) {
		var i = frameOf(e.target);
		if (i >= 0)
			fg.details.nodeValue = fgconf.nametype + " " + fg.f[i].title;
	});
	fg.frames.addEventListener("mouseout", function () {
		fg.details.nodeValue = " ";
	});
	fg.unzoom.addEventListener("click", function () { zoom(-1); });
	fg.search.addEventListener("click", function () {
		if (fg.term)
			setSearch("");
		else
			askSearch();
	});
	fg.ignorecase.addEventListener("click", toggleCase);
	if (fg.basis)
		fg.basis.addEventListener("click", function () { setBefore(!fg.before); });
	window.addEventListener("keydown", function (e) {
		if ((e.ctrlKey || e.metaKey) && (e.key === "f" || e.key === "F") || e.key === "F3") {
			e.preventDefault();
			askSearch();
		} else if ((e.ctrlKey || e.metaKey) && (e.key === "i" || e.key === "I")) {
			e.preventDefault();
			toggleCase();
		} else if (e.key === "Escape") {
			setSearch("");
		}
	});
	window.addEventListener("resize", function () { resize(); render(); });
	window.addEventListener("hashchange", function () { fromURL(); render(); });
	fromURL();
	resize();
	render();
	fg.svg.setAttribute("data-ready", "1");
}

// One pass over the DOM: names, geometry, depth, subtree ends, parents.
function readFrames() {
	var nodes = fg.frames.children, n = nodes.length, stack = [], i;
	var y0 = 0, fh = fgconf.frameheight;
	for (i = 0; i < n; i++) {
		var g = nodes[i], title = g.firstElementChild, rect = title.nextElementSibling;
		var text = rect.nextElementSibling, t = title.textContent;
		var named = g.getAttribute("data-name");
		var y = parseFloat(rect.getAttribute("y"));
		if (i === 0)
			y0 = y;
		var depth = Math.round(Math.abs(y - y0) / fh);
		var f = {
			g: g, rect: rect, text: text, title: t,
			name: named !== null ? named : t.substring(0, t.lastIndexOf(" (")),
			depth: depth,
			x: parseFloat(rect.getAttribute("x")), w: parseFloat(rect.getAttribute("width")),
			bx: parseFloat(g.getAttribute("data-bx")) || 0,
			bw: parseFloat(g.getAttribute("data-bw")) || 0,
			end: n, parent: -1, fill: rect.getAttribute("fill"),
			ty: y + (fh - 1) / 2 + fgconf.fontsize / 3,
			cx: NaN, cw: NaN, tx: NaN, marked: false,	// what the DOM shows now
			label: text ? text.textContent : ""
		};
		f.cx = f.x;
		f.cw = f.w;
		g.fgIndex = i;
		while (stack.length && fg.f[stack[stack.length - 1]].depth >= depth)
			fg.f[stack.pop()].end = i;
		if (stack.length)
			f.parent = stack[stack.length - 1];
		stack.push(i);
		fg.f.push(f);
	}
}

function frameOf(el) {
	while (el && el !== fg.frames) {
		if (el.fgIndex !== undefined)
			return el.fgIndex;
		el = el.parentNode;
	}
	return -1;
}

function resize() {
	if (!fgconf.fluid)
		return;
	var w = fg.svg.getBoundingClientRect().width || window.innerWidth;
	fg.width = Math.max(1, w - 2 * fgconf.xpad);
	fg.frames.setAttribute("width", fg.width);
}

// Geometry for the current zoom and basis, then labels.  While zoomed,
// #frames carries class "zoomed", which hides every frame not marked
// "zshow" (the zoomed subtree and its ancestors), so a zoom writes to the
// frames it shows, not to every frame of a huge graph.
function render() {
	var f = fg.f, n = f.length, z = fg.zoomed, i, k;
	var X = fg.before ? "bx" : "x", W = fg.before ? "bw" : "w";
	var zx = 0, zw = 100, lo = 0, hi = n, show = [];
	if (z >= 0 && f[z][W] > 0) {
		zx = f[z][X];
		zw = f[z][W];
		lo = z;
		hi = f[z].end;
		for (i = f[z].parent; i >= 0; i = f[i].parent)
			show.push(i);
	} else {
		z = -1;
	}
	for (k = 0; k < fg.marked.length; k++) {
		var m = f[fg.marked[k]];
		m.g.classList.remove("zshow", "zparent");
		m.marked = false;
	}
	fg.marked = [];
	if (z >= 0) {
		for (k = 0; k < show.length; k++)
			mark(show[k], true);
		for (i = lo; i < hi; i++)
			mark(i, false);
		fg.frames.classList.add("zoomed");
	} else {
		fg.frames.classList.remove("zoomed");
	}
	for (k = 0; k < show.length; k++)
		place(f[show[k]], 0, 100);
	for (i = lo; i < hi; i++)
		place(f[i], (f[i][X] - zx) * 100 / zw, f[i][W] * 100 / zw);
	fg.unzoom.setAttribute("class", z < 0 ? "hide" : "");
	if (fg.basis)
		fg.basis.textContent = fg.before ? "Show after" : "Show before";
	fg.svg.setAttribute("data-zoomed", String(z));
	paintSearch();
}

function mark(i, ancestor) {
	var fr = fg.f[i];
	fr.g.classList.add("zshow");
	if (ancestor)
		fr.g.classList.add("zparent");
	fr.marked = true;
	fg.marked.push(i);
}

// Move a frame (only the attributes that change) and relabel it.
function place(fr, x, w) {
	if (fr.cx !== x) {
		fr.rect.setAttribute("x", x + "%");
		fr.cx = x;
	}
	if (fr.cw !== w) {
		fr.rect.setAttribute("width", w + "%");
		fr.cw = w;
	}
	label(fr, x, w * fg.width / 100);
}

// The label that fits wpx, cut by average glyph width (no text measuring).
function label(fr, xpct, wpx) {
	var fit = Math.floor((wpx - 6) / (fgconf.fontsize * fgconf.fontwidth)), s = "";
	if (fit >= 3) {
		var name = fr.name;
		if (name.length <= fit)
			s = name;
		else if (fgconf.truncright)
			s = name.substring(0, fit - 2) + "..";
		else
			s = ".." + name.substring(name.length - (fit - 2));
	}
	if (!fr.text) {
		if (!s)
			return;
		fr.text = document.createElementNS(SVGNS, "text");
		fr.text.setAttribute("y", fr.ty);
		fr.g.appendChild(fr.text);
	}
	var tx = xpct + 300 / fg.width;
	if (s && fr.tx !== tx) {
		fr.text.setAttribute("x", tx + "%");
		fr.tx = tx;
	}
	if (fr.label !== s) {
		fr.text.textContent = s;
		fr.label = s;
	}
}

function zoom(i) {
	fg.zoomed = i;
	render();
	toURL();
}

function setBefore(on) {
	fg.before = !!on;
	render();
	toURL();
}

function askSearch() {
	var term = prompt("Search for a function (regular expression, e.g. ^ext4_)" +
		(fg.icase ? ", ignoring case" : "") + "\nCtrl-I toggles case sensitivity", fg.term);
	if (term !== null)
		setSearch(term);
}

function toggleCase() {
	fg.icase = !fg.icase;
	fg.ignorecase.setAttribute("class", fg.icase ? "on" : "");
	paintSearch();
	toURL();
}

function setSearch(term) {
	fg.term = term;
	paintSearch();
	toURL();
}

// Colour the matches and total them, counting a match inside a match once:
// after a matching frame the walk skips its subtree.
function paintSearch() {
	var f = fg.f, n = f.length, re = null, i, total = 0;
	var W = fg.before ? "bw" : "w";
	if (fg.term) {
		try {
			re = new RegExp(fg.term, fg.icase ? "i" : "");
		} catch (e) {
			re = null;
		}
	}
	for (i = 0; i < n; i++) {
		var hit = re !== null && re.test(f[i].name);
		if (hit !== !!f[i].hit) {
			f[i].hit = hit;
			f[i].rect.setAttribute("fill", hit ? fgconf.searchcolor : f[i].fill);
			hit ? f[i].g.setAttribute("data-match", "1") : f[i].g.removeAttribute("data-match");
		}
	}
	for (i = 0; i < n && re !== null;) {
		if (f[i].hit) {
			total += f[i][W];
			i = f[i].end;
		} else {
			i++;
		}
	}
	if (re === null) {
		fg.matched.textContent = fg.term ? "Invalid regular expression" : " ";
		fg.search.textContent = fg.term ? "Reset Search" : "Search";
	} else {
		fg.matched.textContent = "Matched: " + (Math.round(total * 10) / 10).toFixed(1) + "%";
		fg.search.textContent = "Reset Search";
	}
}

function fromURL() {
	var h = (location.hash || "").replace(/^#/, "") + "&" + (location.search || "").replace(/^\?/, "");
	var parts = h.split("&"), i;
	fg.zoomed = -1;
	fg.term = "";
	fg.icase = false;
	fg.before = false;
	for (i = 0; i < parts.length; i++) {
		var eq = parts[i].indexOf("="), k, v;
		if (eq < 0)
			continue;
		k = parts[i].substring(0, eq);
		v = decodeURIComponent(parts[i].substring(eq + 1).replace(/\+/g, " "));
		if (k === "x") {
			var z = parseInt(v, 10);
			fg.zoomed = z > 0 && z < fg.f.length ? z : -1;
		} else if (k === "s") {
			fg.term = v;
		} else if (k === "i") {
			fg.icase = v === "1";
		} else if (k === "b") {
			fg.before = v === "1" && !!fg.basis;
		}
	}
	fg.ignorecase.setAttribute("class", fg.icase ? "on" : "");
}

function toURL() {
	var p = [];
	if (fg.zoomed > 0)
		p.push("x=" + fg.zoomed);
	if (fg.term)
		p.push("s=" + encodeURIComponent(fg.term));
	if (fg.icase)
		p.push("i=1");
	if (fg.before)
		p.push("b=1");
	var url = location.pathname + location.search + (p.length ? "#" + p.join("&") : "");
	try {
		history.replaceState(null, "", url);
	} catch (e) {
		// some viewers (file:// in an <object>) refuse; the view still works
	}
}
