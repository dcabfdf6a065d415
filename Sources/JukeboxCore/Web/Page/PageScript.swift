// The page's script, served at `/page.js`: plain JavaScript, no framework. The player's
// state arrives as `status` events on one EventSource (no polling); every change is a
// POST carrying `X-Jukebox: 1`. The DOM is built with textContent only, so a tag or a
// file name can never become markup.
extension PageAssets {
    public static let script: String = #"""
(() => {
'use strict';

var $ = id => document.getElementById(id);
var S = {
  name: 'Jukebox', canChange: true, needsLogin: false,
  status: null, at: 0, fromEvents: false,
  tab: 'now', side: 'library',
  coverUrl: null, lyrics: null, lyricsFor: undefined, lyrIdx: -2, lyrSpans: [],
  seeking: false, volHeldUntil: 0, speedHeld: false,
  queueStale: true, libStarted: false,
  lastUnknown: null, configLoaded: false, configDirty: false, configErrors: [], gutterLines: -1
};

// -- small helpers
function h(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function icon(name) {
  var s = document.querySelector('#icons [data-icon="' + name + '"]');
  return s ? s.cloneNode(true) : h('span');
}
function button(cls, text) { var b = h('button', cls, text); b.type = 'button'; return b; }
function iconButton(name, label, cls) {
  var b = button('round ' + (cls || ''));
  b.setAttribute('aria-label', label); b.title = label; b.append(icon(name));
  return b;
}
function setText(id, text) { var e = $(id); if (e && e.textContent !== text) e.textContent = text; }
function num(v, d) { var n = Number(v); return v == null || !isFinite(n) ? d : n; }
function baseName(p) {
  if (!p) return '';
  var s = String(p).replace(/\/+$/, '');
  return s.slice(s.lastIndexOf('/') + 1);
}
function fmt(sec) {
  sec = Math.floor(num(sec, 0)); if (sec < 0) sec = 0;
  var hh = Math.floor(sec / 3600), m = Math.floor(sec / 60) % 60, s = sec % 60;
  var ss = (s < 10 ? '0' : '') + s;
  return hh ? hh + ':' + (m < 10 ? '0' : '') + m + ':' + ss : m + ':' + ss;
}
// One MPD argument: in double quotes, with `\` and `"` escaped by a backslash.
function quote(s) { return '"' + String(s).replace(/[\\"]/g, c => '\\' + c) + '"'; }
function on(v) { return !(v === false || v === 0 || v === '0' || v == null || v === ''); }
function press(id, yes) { var e = $(id); var v = yes ? 'true' : 'false'; if (e.getAttribute('aria-pressed') !== v) e.setAttribute('aria-pressed', v); }

var flashTimer = 0;
function flash(text, bad) {
  var m = $('message');
  m.textContent = text; m.classList.toggle('bad', !!bad); m.classList.add('show');
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => m.classList.remove('show'), bad ? 6000 : 3000);
}

// A button that asks for a second tap before doing something that loses work.
function confirmTap(b, question, act, needed) {
  var label = b.textContent, armed = 0;
  b.addEventListener('click', () => {
    if (armed || (needed && !needed())) { clearTimeout(armed); armed = 0; b.textContent = label; act(); return; }
    b.textContent = question;
    armed = setTimeout(() => { armed = 0; b.textContent = label; }, 3000);
  });
}

// -- HTTP
function request(url, opts, isLogin) {
  opts = opts || {};
  return fetch(url, opts).then(res => {
    return res.text().then(text => {
      var body = null;
      try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
      if (!body || typeof body !== 'object') body = res.ok ? {} : { ok: false, error: 'The box answered ' + res.status };
      if ((res.status === 401 || res.status === 403) && !isLogin) loadSession();
      return { status: res.status, body: body };
    });
  }, () => ({ status: 0, body: { ok: false, error: 'The box cannot be reached' } }));
}
function post(url, data, isLogin) {
  return request(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Jukebox': '1' },
    body: JSON.stringify(data),
    credentials: 'same-origin'
  }, isLogin);
}
function mpd(command) {
  return post('/api/mpd', { command: command }).then(r => {
    if (r.status !== 200 || r.body.ok === false) throw new Error(r.body.error || ('The box answered ' + r.status));
    return Array.isArray(r.body.pairs) ? r.body.pairs : [];
  });
}
// Commands one after another, in order; the first failure stops the rest.
function run(commands) {
  var chain = Promise.resolve();
  commands.forEach(c => { chain = chain.then(() => mpd(c)); });
  return chain.then(() => true, e => { flash(e.message, true); return false; });
}
// MPD's pairs cut into records, each starting at one of `starts` (file, directory...).
function records(pairs, starts) {
  var out = [], cur = null;
  pairs.forEach(p => {
    var k = p[0], v = p[1];
    if (starts.indexOf(k) >= 0) { cur = { kind: k, uri: v }; out.push(cur); }
    else if (cur && !cur.hasOwnProperty(k)) cur[k] = v;
  });
  return out;
}
function values(pairs, tag) {
  var t = tag.toLowerCase(), seen = new Set();
  pairs.forEach(p => { if (String(p[0]).toLowerCase() === t && p[1]) seen.add(p[1]); });
  return Array.from(seen);
}

// -- session and rights
function loadSession() {
  return request('/api/session', {}, true).then(r => {
    var b = r.body;
    if (r.status === 200) {
      S.canChange = !!b.canChange; S.needsLogin = !!b.needsLogin;
      if (b.name) S.name = String(b.name);
    }
    setText('box-name', S.name);
    $('login').hidden = !S.needsLogin;
    applyRights();
  });
}
function applyRights() {
  var no = !S.canChange;
  document.body.classList.toggle('readonly', no);
  document.querySelectorAll('.change').forEach(e => { e.disabled = no; });
  $('config-text').readOnly = no;
  $('card-link').disabled = no || !S.lastUnknown;
  if (S.status) tick();
}
function wait(seconds) {
  var left = Math.max(1, Math.ceil(seconds)), b = $('login-submit');
  b.disabled = true;
  (function step() {
    if (left <= 0) { b.disabled = false; setText('login-error', ''); return; }
    setText('login-error', 'Too many tries: wait ' + left + ' s');
    left -= 1;
    setTimeout(step, 1000);
  })();
}

// -- tabs
var TABS = ['now', 'library', 'queue', 'upload', 'cards', 'settings'];
function showTab(name) {
  if (TABS.indexOf(name) < 0) name = 'now';
  S.tab = name;
  if (name !== 'now') S.side = name;
  TABS.forEach(t => {
    $('tab-' + t).setAttribute('aria-selected', t === name ? 'true' : 'false');
    $('view-' + t).classList.toggle('active', t === name);
    $('view-' + t).classList.toggle('side', t === S.side);
  });
  if (history.replaceState) history.replaceState(null, '', '#' + name);
  prepare(S.side);
  $('main').scrollTop = 0;
}
// Loads a section's data the first time it is seen (or when it went stale).
function prepare(tab) {
  if (tab === 'library' && !S.libStarted) { S.libStarted = true; libMode('folders'); }
  if (tab === 'queue' && S.queueStale) loadQueue();
  if (tab === 'cards') loadCards();
  if (tab === 'settings' && !S.configLoaded) loadConfig(false);
}

// -- now playing
function applyStatus(st) {
  if (!st || typeof st !== 'object') return;
  var prev = S.status;
  S.status = st; S.at = performance.now();
  document.body.setAttribute('data-state', String(st.state || 'stopped'));

  var title = st.title ? String(st.title) : baseName(st.file);
  setText('title', title);
  setText('artist', st.artist ? String(st.artist) : '');
  setText('album', st.album ? String(st.album) : '');
  document.title = title ? title + ' · ' + S.name : S.name;
  var len = num(st.length, 0), pos = st.position;
  setText('queue-place', pos != null && len ? 'Track ' + (num(pos, 0) + 1) + ' of ' + len
    : (len ? len + ' in the queue' : 'The queue is empty'));

  var playing = st.state === 'playing', pp = $('play-pause');
  pp.classList.toggle('is-playing', playing);
  pp.setAttribute('aria-label', playing ? 'Pause' : 'Play');

  var url = st.cover && st.track ? '/api/cover?track=' + encodeURIComponent(st.track) : null;
  if (url !== S.coverUrl) {
    S.coverUrl = url;
    var img = $('cover');
    if (url) { img.src = url; img.hidden = false; $('cover-none').hidden = true; }
    else { img.removeAttribute('src'); img.hidden = true; $('cover-none').hidden = false; }
  }
  if (!prev || prev.track !== st.track) loadLyrics(st.track);

  var tr = $('trouble');
  tr.hidden = !st.trouble;
  setText('trouble', st.trouble ? String(st.trouble) : '');

  var vol = $('volume');
  vol.min = num(st.volumeMin, 0); vol.max = num(st.volumeMax, 100);
  vol.disabled = !S.canChange || st.volume == null;
  if (performance.now() > S.volHeldUntil) {
    if (st.volume == null) setText('volume-value', '–');
    else { vol.value = st.volume; setText('volume-value', String(st.volume)); }
  }
  press('repeat', on(st.repeat)); press('random', on(st.random));
  press('single', on(st.single)); press('consume', on(st.consume));
  press('keylock', on(st.keysLocked));
  if (!S.speedHeld) { var sp = num(st.speed, 1); $('speed').value = sp; setText('speed-value', speedText(sp)); }

  var sl = $('sleep');
  if (st.sleepLeft == null) {
    // "End of track" has no time left to show: keep it until the track changes or stops.
    if (sl.value !== 'end-of-track' || (prev && prev.track !== st.track) || st.state !== 'playing') sl.value = 'off';
  } else if (sl.value === 'off' || sl.value === 'end-of-track') sl.value = 'on';

  if (!prev || prev.queueVersion !== st.queueVersion) {
    S.queueStale = true;
    if (S.tab === 'queue' || S.side === 'queue') loadQueue();
  }
  // A card the box does not know was just read: the Cards tab offers to link it.
  if (st.unknownCard && (!prev || prev.unknownCard !== st.unknownCard) && S.tab === 'cards') loadCards();
  markCurrent();
  tick();
  loop();
}
function speedText(s) { return (Math.round(s * 100) / 100) + '×'; }
// Where the track is now: the last report, advanced at `speed` while playing.
function position() {
  var st = S.status; if (!st) return 0;
  var e = num(st.elapsed, 0), d = num(st.duration, 0);
  if (st.state === 'playing') e += (performance.now() - S.at) / 1000 * num(st.speed, 1);
  return d > 0 ? Math.min(e, d) : e;
}
function showTimes(e, d) {
  setText('elapsed', fmt(e));
  setText('remaining', d > 0 ? '-' + fmt(Math.max(0, d - e)) : '');
}
function tick() {
  var st = S.status; if (!st) return;
  var e = position(), d = num(st.duration, 0), seek = $('seek');
  seek.disabled = !S.canChange || !(d > 0);
  if (!S.seeking) {
    if (Number(seek.max) !== d) seek.max = d > 0 ? d : 0;
    seek.value = e;
    showTimes(e, d);
  }
  if (st.sleepLeft == null) setText('sleep-left', '');
  else setText('sleep-left', 'stops in ' + fmt(num(st.sleepLeft, 0) - (performance.now() - S.at) / 1000));
  drawLyrics(e * 1000);
}
var raf = 0;
function loop() {
  if (raf) return;
  var step = () => {
    raf = 0; tick();
    if (S.status && S.status.state === 'playing' && !document.hidden) raf = requestAnimationFrame(step);
  };
  raf = requestAnimationFrame(step);
}

// -- lyrics
function loadLyrics(track) {
  S.lyricsFor = track; S.lyrics = null; S.lyrIdx = -2; S.lyrSpans = [];
  $('lyrics').hidden = true;
  if (!track) return;
  request('/api/lyrics?track=' + encodeURIComponent(track)).then(r => {
    if (S.lyricsFor !== track) return;
    var b = r.body;
    if (r.status !== 200 || !Array.isArray(b.lines) || !b.lines.length) return;
    S.lyrics = { synced: !!b.synced, lines: b.lines.filter(l => l && typeof l === 'object') };
    var plain = $('lyrics-plain');
    plain.hidden = S.lyrics.synced;
    ['lyric-prev', 'lyric-current', 'lyric-next'].forEach(id => { $(id).hidden = !S.lyrics.synced; });
    if (!S.lyrics.synced) plain.textContent = S.lyrics.lines.map(l => String(l.text || '')).join('\n');
    $('lyrics').hidden = false;
    tick();
  });
}
function drawLyrics(t) {
  var L = S.lyrics;
  if (!L || !L.synced) return;
  // The line being sung, or the next to be sung: the first that has not ended.
  var i = 0;
  while (i < L.lines.length && num(L.lines[i].end, 0) <= t) i++;
  if (i !== S.lyrIdx) { S.lyrIdx = i; buildLine(i); }
  S.lyrSpans.forEach(s => {
    var f = s.end > s.start ? (t - s.start) / (s.end - s.start) : (t >= s.start ? 1 : 0);
    f = f < 0 ? 0 : (f > 1 ? 1 : f);
    var pct = Math.round(f * 1000) / 10;
    if (pct !== s.f) { s.f = pct; s.el.style.setProperty('--fill', pct + '%'); }
  });
}
function buildLine(i) {
  var lines = S.lyrics.lines, line = lines[i], cur = $('lyric-current');
  setText('lyric-prev', i > 0 ? String(lines[i - 1].text || '') : '');
  setText('lyric-next', i + 1 < lines.length ? String(lines[i + 1].text || '') : '');
  cur.textContent = ''; S.lyrSpans = [];
  if (!line) return;
  var text = String(line.text || '');
  var words = Array.isArray(line.words) ? line.words.filter(w => w && typeof w.text === 'string' && w.text) : [];
  var add = (t, start, end) => {
    var s = h('span', 'kw', t); cur.append(s);
    S.lyrSpans.push({ el: s, start: num(start, 0), end: num(end, 0), f: -1 });
  };
  if (!words.length) add(text, line.start, line.end);
  else {
    // Each word found in the line's text in order; what lies between (spaces,
    // punctuation) fills when the word before it is done.
    var at = 0, lastEnd = num(words[0].start, 0);
    words.forEach((w, k) => {
      var found = text.indexOf(w.text, at);
      if (found > at) add(text.slice(at, found), lastEnd, lastEnd);
      else if (found < 0 && k > 0) add(' ', lastEnd, lastEnd);
      add(w.text, w.start, w.end);
      lastEnd = num(w.end, 0);
      if (found >= 0) at = found + w.text.length;
    });
    if (at > 0 && at < text.length) add(text.slice(at), lastEnd, lastEnd);
  }
  cur.classList.toggle('rtl', getComputedStyle(cur).direction === 'rtl');
}

// -- library
var lib = { stack: [] };
function libMode(mode) {
  ['folders', 'artists', 'albums'].forEach(m => press('lib-' + m, m === mode));
  lib.stack = [];
  libPush(mode === 'artists' ? artistsView() : mode === 'albums' ? albumsView(null, null) : folderView(''));
}
function libPush(view) { lib.stack.push(view); libShow(); }
function libShow() {
  var view = lib.stack[lib.stack.length - 1], list = $('library-list');
  setText('lib-path', view.label);
  $('lib-up').disabled = lib.stack.length < 2;
  $('artist-tag-box').hidden = !view.artistRoot;
  list.textContent = '';
  list.append(h('li', 'empty', 'Loading…'));
  view.load().then(rows => {
    if (lib.stack[lib.stack.length - 1] !== view) return;
    renderRows(list, rows, view.empty || 'Nothing here.', libRow);
    if (view.note && view.note(rows)) list.append(h('li', 'empty', view.note(rows)));
  }, e => {
    if (lib.stack[lib.stack.length - 1] !== view) return;
    list.textContent = ''; list.append(h('li', 'empty bad', e.message));
  });
}
function folderView(path) {
  return {
    label: path || 'All folders',
    load: () => mpd('lsinfo ' + quote(path)).then(pairs => records(pairs, ['directory', 'file', 'playlist']).map(r => {
      if (r.kind === 'directory') {
        return { title: baseName(r.uri), icon: 'folder', uri: r.uri, add: ['add ' + quote(r.uri)], open: () => folderView(r.uri) };
      }
      if (r.kind === 'playlist') return { title: baseName(r.uri), sub: 'Playlist', icon: 'list', uri: r.uri, add: ['load ' + quote(r.uri)] };
      return trackRow(r);
    })),
    empty: 'This folder is empty.'
  };
}
function trackSub(r) {
  var d = num(r.duration, num(r.Time, 0));
  return [r.Artist, r.Album, d > 0 ? fmt(d) : ''].filter(Boolean).join(' · ');
}
function trackRow(r) {
  return { title: r.Title || baseName(r.uri), sub: trackSub(r), icon: 'note', uri: r.uri, add: ['add ' + quote(r.uri)] };
}
function artistsView() {
  var tag = $('artist-tag').checked ? 'albumartist' : 'artist';
  return {
    label: tag === 'albumartist' ? 'Album artists' : 'Artists', artistRoot: true,
    load: () => {
      return mpd('list ' + tag).then(pairs => {
        var names = values(pairs, tag);
        // A library with no album artist tags at all: list the artists instead.
        if (!names.length && tag === 'albumartist') {
          $('artist-tag').checked = false;
          return mpd('list artist').then(p => { tag = 'artist'; return values(p, 'artist'); });
        }
        return names;
      }).then(names => names.map(a => ({ title: a, icon: 'person', name: a, add: ['findadd ' + tag + ' ' + quote(a)],
        open: () => albumsView(tag, a) })));
    },
    empty: 'No artists in the library.'
  };
}
function albumsView(tag, artist) {
  return {
    label: artist || 'Albums',
    load: () => {
      var cmd = artist ? 'list album ' + tag + ' ' + quote(artist) : 'list album';
      return mpd(cmd).then(pairs => {
        return values(pairs, 'album').map(al => {
          var filter = 'album ' + quote(al) + (artist ? ' ' + tag + ' ' + quote(artist) : '');
          return { title: al, sub: artist || '', icon: 'album', name: al, add: ['findadd ' + filter],
            open: () => tracksView(al, 'find ' + filter) };
        });
      });
    },
    empty: 'No albums.'
  };
}
function tracksView(label, cmd) {
  return {
    label: label,
    load: () => mpd(cmd).then(pairs => records(pairs, ['file']).map(trackRow)),
    empty: 'No tracks.'
  };
}
function searchView(text) {
  return {
    label: 'Search: ' + text,
    load: () => mpd('search any ' + quote(text) + ' window 0:200').then(pairs => records(pairs, ['file']).map(trackRow)),
    empty: 'Nothing found.',
    note: rows => rows.length >= 200 ? 'The first 200 are shown: narrow the search.' : ''
  };
}
// Long lists are drawn 300 rows at a time.
function renderRows(list, rows, empty, make) {
  list.textContent = '';
  if (!rows.length) { list.append(h('li', 'empty', empty)); return; }
  var shown = 0;
  var more = () => {
    var old = list.querySelector(':scope > .more');
    if (old) old.remove();
    var frag = document.createDocumentFragment(), end = Math.min(rows.length, shown + 300);
    for (; shown < end; shown++) frag.append(make(rows[shown]));
    list.append(frag);
    if (shown < rows.length) {
      var li = h('li', 'more'), b = button('', 'Show more (' + (rows.length - shown) + ' left)');
      b.id = list.id + '-more';
      b.addEventListener('click', more);
      li.append(b); list.append(li);
    }
    if (!S.canChange) list.querySelectorAll('.change').forEach(e => { e.disabled = true; });
  };
  more();
}
function rowText(title, sub) {
  var t = h('span', 'row-text');
  t.append(h('span', 'row-title', title));
  if (sub) t.append(h('span', 'row-sub', sub));
  return t;
}
function libRow(r) {
  var li = h('li', 'row');
  if (r.uri) li.setAttribute('data-uri', r.uri);
  if (r.name) li.setAttribute('data-name', r.name);
  var main = h(r.open ? 'button' : 'div', 'row-main');
  if (r.open) { main.type = 'button'; main.addEventListener('click', () => libPush(r.open())); }
  main.append(icon(r.icon), rowText(r.title, r.sub));
  li.append(main);
  if (r.add) {
    var a = iconButton('add', 'Add ' + r.title + ' to the queue', 'change row-add');
    a.addEventListener('click', () => { run(r.add).then(ok => { if (ok) flash('Added: ' + r.title); }); });
    var p = iconButton('play', 'Play ' + r.title + ' now', 'change row-play');
    p.addEventListener('click', () => run(['clear'].concat(r.add, ['play'])));
    li.append(a, p);
  }
  return li;
}

// -- queue
function loadQueue() {
  S.queueStale = false;
  var list = $('queue-list');
  return mpd('playlistinfo').then(pairs => {
    var items = records(pairs, ['file']);
    setText('queue-count', items.length === 1 ? '1 track' : items.length + ' tracks');
    renderRows(list, items, 'The queue is empty: add music from the library.', queueRow);
    markCurrent();
  }, e => {
    S.queueStale = true;
    list.textContent = ''; list.append(h('li', 'empty bad', e.message));
  });
}
function queueRow(r) {
  var li = h('li', 'row'), title = r.Title || baseName(r.uri);
  li.setAttribute('data-id', r.Id); li.setAttribute('data-pos', r.Pos);
  var main = button('row-main change');
  main.append(h('span', 'row-num', String(num(r.Pos, 0) + 1)), rowText(title, trackSub(r)));
  main.addEventListener('click', () => run(['playid ' + r.Id]));
  var x = iconButton('remove', 'Remove ' + title + ' from the queue', 'change row-remove');
  x.addEventListener('click', () => run(['deleteid ' + r.Id]));
  li.append(main, x);
  return li;
}
function markCurrent() {
  var list = $('queue-list'), old = list.querySelector('.row.current');
  var pos = S.status ? S.status.position : null;
  var now = pos == null ? null : list.querySelector('.row[data-pos="' + num(pos, -1) + '"]');
  if (old === now) return;
  if (old) { old.classList.remove('current'); old.firstChild.removeAttribute('aria-current'); }
  if (now) { now.classList.add('current'); now.firstChild.setAttribute('aria-current', 'true'); }
}

// -- upload
var up = { waiting: [], active: 0, done: 0, failed: 0, total: 0 };
function skipName(path) { return /(^|\/)\./.test(path) || /(^|\/)(Thumbs\.db|desktop\.ini)$/i.test(path); }
function queueUploads(entries) {
  entries.forEach(e => {
    if (!e.path || skipName(e.path)) return;
    var li = h('li', 'up'), bar = h('progress'), state = h('span', 'up-state', 'Waiting');
    bar.max = 1; bar.value = 0;
    li.setAttribute('data-path', e.path);
    li.append(h('span', 'up-name', e.path), bar, state);
    $('upload-list').append(li);
    e.li = li; e.bar = bar; e.state = state; e.tries = 0;
    up.waiting.push(e); up.total += 1;
  });
  summary(); pump();
}
function summary() {
  var left = up.total - up.done - up.failed;
  setText('upload-summary', up.total ? up.done + ' sent' + (up.failed ? ', ' + up.failed + ' failed' : '') + (left ? ', ' + left + ' to go' : '') : '');
}
function pump() { while (up.active < 2 && up.waiting.length) send(up.waiting.shift()); }
function send(e) {
  up.active += 1;
  e.state.textContent = 'Sending…';
  var xhr = new XMLHttpRequest();
  xhr.open('PUT', '/api/upload?path=' + encodeURIComponent(e.path));
  xhr.setRequestHeader('X-Jukebox', '1');
  xhr.upload.onprogress = ev => {
    if (!ev.lengthComputable || !ev.total) return;
    e.bar.value = ev.loaded / ev.total;
    e.state.textContent = Math.floor(100 * ev.loaded / ev.total) + '%';
  };
  xhr.onload = () => {
    var b = null;
    try { b = JSON.parse(xhr.responseText); } catch (x) { b = null; }
    if (xhr.status >= 200 && xhr.status < 300 && !(b && b.ok === false)) return finish(e, true, 'Done: ' + ((b && b.path) || e.path));
    if (xhr.status === 401 || xhr.status === 403) loadSession();
    if (xhr.status === 429 && e.tries < 5) {
      // The box takes only a few at once: wait a little and try again.
      e.tries += 1; up.active -= 1;
      e.state.textContent = 'The box is busy: trying again';
      setTimeout(() => { up.waiting.unshift(e); pump(); }, 1500 * e.tries);
      return pump();
    }
    finish(e, false, (b && b.error) || ('Failed: the box answered ' + xhr.status));
  };
  xhr.onerror = () => finish(e, false, 'Failed: the connection was lost');
  xhr.send(e.file);
}
function finish(e, ok, text) {
  up.active -= 1;
  // A new file is in the library: the library's list is made again when next shown.
  if (ok) { up.done += 1; e.bar.value = 1; S.libStarted = false; } else up.failed += 1;
  e.li.classList.add(ok ? 'ok' : 'bad');
  e.state.textContent = text;
  summary(); pump();
}
function pickerFiles(input) {
  var out = Array.prototype.map.call(input.files || [], f => ({ file: f, path: f.webkitRelativePath || f.name }));
  input.value = '';
  queueUploads(out);
}
// A dropped folder is walked with the entries API so each file keeps its relative path.
function walk(entry, out) {
  if (entry.isFile) {
    return new Promise(done => {
      entry.file(f => { out.push({ file: f, path: entry.fullPath.replace(/^\/+/, '') || f.name }); done(); }, () => done());
    });
  }
  if (!entry.isDirectory) return Promise.resolve();
  var reader = entry.createReader();
  return new Promise(done => {
    (function next() {
      reader.readEntries(list => {
        if (!list.length) return done();
        list.reduce((p, c) => p.then(() => walk(c, out)), Promise.resolve()).then(next);
      }, () => done());
    })();
  });
}
function dropped(dt) {
  var entries = [];
  if (dt.items) Array.prototype.forEach.call(dt.items, it => {
    var en = it.kind === 'file' && it.webkitGetAsEntry ? it.webkitGetAsEntry() : null;
    if (en) entries.push(en);
  });
  if (!entries.length) {
    queueUploads(Array.prototype.map.call(dt.files || [], f => ({ file: f, path: f.name })));
    return;
  }
  var out = [];
  entries.reduce((p, en) => p.then(() => walk(en, out)), Promise.resolve())
    .then(() => queueUploads(out));
}

// -- cards
function loadCards() {
  return request('/api/cards').then(r => {
    var b = r.body, list = $('cards-list');
    if (r.status !== 200) { setText('card-message', b.error || 'The cards could not be read.'); return; }
    S.lastUnknown = b.lastUnknown ? String(b.lastUnknown) : null;
    setText('card-unknown', S.lastUnknown ? 'Card just read: ' + S.lastUnknown
      : 'No new card read yet. Hold a new card to the reader, then tap Refresh.');
    applyRights();
    var cards = Array.isArray(b.cards) ? b.cards : [];
    renderRows(list, cards, 'No card is linked yet.', cardRow);
  });
}
function cardRow(c) {
  var li = h('li', 'row card'), uid = String(c.card || '');
  li.setAttribute('data-card', uid);
  var t = rowText(c.title ? String(c.title) : uid, 'Plays ' + String(c.plays || '?'));
  var extra = 'Card ' + uid;
  if (c.place && c.place.path) extra += ' · saved place: ' + baseName(c.place.path) + ' at ' + fmt(c.place.seconds);
  t.append(h('span', 'row-sub', extra));
  var main = h('div', 'row-main'); main.append(t);
  var relink = button('chip change card-relink', 'Relink');
  relink.title = 'Make this card play the folder above';
  relink.addEventListener('click', () => linkCard(uid));
  var unlink = button('chip change card-unlink', 'Unlink');
  unlink.setAttribute('aria-label', 'Unlink card ' + uid);
  unlink.addEventListener('click', () => {
    post('/api/cards/unlink', { card: uid }).then(r => {
      if (r.status === 200 && r.body.ok !== false) { flash('Card ' + uid + ' unlinked'); loadCards(); }
      else flash(r.body.error || 'The card could not be unlinked', true);
    });
  });
  li.append(main, relink, unlink);
  return li;
}
function linkCard(uid) {
  var folder = $('card-folder').value.trim().replace(/^\/+|\/+$/g, '');
  if (!folder) { setText('card-message', 'Choose or type a folder first.'); $('card-folder').focus(); return; }
  var body = uid ? { card: uid, folder: folder } : { folder: folder };
  post('/api/cards/link', body).then(r => {
    if (r.status === 200 && r.body.ok !== false) {
      setText('card-message', 'Card ' + (r.body.card || uid || '') + ' now plays ' + folder + '.');
      loadCards();
    } else setText('card-message', r.body.error || 'The card could not be linked.');
  });
}
var cb = { path: '' };
function cardBrowse(path) {
  cb.path = path;
  setText('card-browser-path', path || 'All folders');
  $('card-browser-up').disabled = !path;
  $('card-browser-choose').disabled = !path;
  var list = $('card-browser-list');
  list.textContent = ''; list.append(h('li', 'empty', 'Loading…'));
  mpd('lsinfo ' + quote(path)).then(pairs => {
    if (cb.path !== path) return;
    var dirs = records(pairs, ['directory', 'file', 'playlist']).filter(r => r.kind === 'directory');
    renderRows(list, dirs, 'No folders inside.', r => {
      var li = h('li', 'row'); li.setAttribute('data-uri', r.uri);
      var main = button('row-main'); main.append(icon('folder'), rowText(baseName(r.uri)));
      main.addEventListener('click', () => cardBrowse(r.uri));
      var pick = button('chip', 'Choose');
      pick.addEventListener('click', () => choose(r.uri));
      li.append(main, pick);
      return li;
    });
  }, e => { list.textContent = ''; list.append(h('li', 'empty bad', e.message)); });
}
function choose(path) {
  $('card-folder').value = path;
  $('card-browser').hidden = true;
  $('card-browse').setAttribute('aria-expanded', 'false');
}

// -- settings
function loadConfig(force) {
  if (S.configDirty && !force) return;
  setText('config-status', 'Loading…');
  request('/api/config').then(r => {
    if (r.status !== 200) { setText('config-status', r.body.error || 'The configuration could not be read.'); return; }
    S.configLoaded = true; S.configDirty = false; S.configErrors = [];
    setText('config-path', r.body.path ? String(r.body.path) : '');
    $('config-text').value = String(r.body.text || '');
    setText('config-status', '');
    showErrors(); gutter(true);
  });
}
function gutter(force) {
  var ta = $('config-text'), g = $('config-gutter');
  var n = ta.value.split('\n').length;
  if (n === S.gutterLines && !force) return;
  S.gutterLines = n;
  var bad = {};
  S.configErrors.forEach(e => { bad[num(e.line, 0)] = (bad[num(e.line, 0)] ? bad[num(e.line, 0)] + '; ' : '') + e.message; });
  var frag = document.createDocumentFragment();
  for (var i = 1; i <= n; i++) {
    var d = h('div', bad[i] ? 'err' : '', String(i));
    if (bad[i]) { d.title = bad[i]; d.setAttribute('data-line', String(i)); }
    frag.append(d);
  }
  g.textContent = ''; g.append(frag);
  g.scrollTop = ta.scrollTop;
}
function showErrors() {
  var list = $('config-errors');
  list.textContent = '';
  S.configErrors.forEach(e => {
    var line = num(e.line, 0), col = num(e.column, 0);
    var li = h('li'), b = button('err-go', 'Line ' + line + (col ? ', column ' + col : '') + ': ' + String(e.message || ''));
    b.setAttribute('data-line', String(line));
    b.addEventListener('click', () => goLine(line));
    li.append(b); list.append(li);
  });
}
// Selects the line in the editor and scrolls it into view, a third from the top.
function goLine(line) {
  var ta = $('config-text'), lines = ta.value.split('\n');
  if (line < 1) return;
  line = Math.min(line, lines.length);
  var start = 0;
  for (var i = 0; i < line - 1; i++) start += lines[i].length + 1;
  var end = start + lines[line - 1].length;
  var lh = parseFloat(getComputedStyle(ta).lineHeight) || 22;
  ta.focus({ preventScroll: true });
  ta.setSelectionRange(start, end);
  ta.scrollTop = Math.max(0, (line - 1) * lh - ta.clientHeight / 3);
  $('config-gutter').scrollTop = ta.scrollTop;
  var g = $('config-gutter').children[line - 1];
  document.querySelectorAll('#config-gutter .here').forEach(e => e.classList.remove('here'));
  if (g) g.classList.add('here');
}
function saveConfig() {
  var text = $('config-text').value;
  setText('config-status', 'Saving…');
  post('/api/config', { text: text }).then(r => {
    if (r.status === 200 && r.body.ok !== false) {
      S.configDirty = false; S.configErrors = [];
      setText('config-status', 'Saved: the box applies it now.');
    } else if (r.status === 422 && Array.isArray(r.body.errors)) {
      S.configErrors = r.body.errors.filter(e => e && typeof e === 'object');
      var n = S.configErrors.length;
      setText('config-status', 'Not saved: ' + (n === 1 ? 'one problem' : n + ' problems') + ' to fix.');
      if (n) goLine(num(S.configErrors[0].line, 0));
    } else setText('config-status', 'Not saved: ' + (r.body.error || 'the box answered ' + r.status));
    showErrors(); gutter(true);
  });
}

// -- live events
function setConn(text, live) { var c = $('conn'); c.textContent = text; c.classList.toggle('live', !!live); }
function connect() {
  if (!window.EventSource) { setConn('No live updates'); return; }
  var es = new EventSource('/api/events');
  es.addEventListener('status', ev => {
    var st = null;
    try { st = JSON.parse(ev.data); } catch (e) { st = null; }
    if (st) { S.fromEvents = true; applyStatus(st); }
  });
  es.onopen = () => setConn('Live', true);
  es.onerror = () => {
    // EventSource retries by itself, unless the box answered with an error: then start over.
    if (es.readyState === 2) { setConn('Offline'); setTimeout(connect, 5000); }
    else setConn('Reconnecting…');
  };
}

// -- wiring
function wire() {
  TABS.forEach(t => { $('tab-' + t).addEventListener('click', () => showTab(t)); });
  document.querySelector('nav.tabs').addEventListener('keydown', ev => {
    var k = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
    if (!k) return;
    var i = (TABS.indexOf(S.tab) + k + TABS.length) % TABS.length;
    showTab(TABS[i]); $('tab-' + TABS[i]).focus();
  });

  $('login-form').addEventListener('submit', ev => {
    ev.preventDefault();
    setText('login-error', '');
    post('/api/login', { password: $('login-password').value }, true).then(r => {
      if (r.status === 200 && r.body.ok !== false) {
        $('login-password').value = '';
        loadSession().then(() => flash('Logged in'));
      } else if (r.status === 429) wait(num(r.body.retryAfter, 10));
      else if (r.status === 401) setText('login-error', 'Wrong password.');
      else setText('login-error', r.body.error || 'The box answered ' + r.status);
    });
  });
  $('logout').addEventListener('click', () => {
    post('/api/logout', {}, true).then(() => loadSession());
  });

  // Now playing
  $('play-pause').addEventListener('click', () => {
    var st = S.status ? S.status.state : 'stopped';
    run([st === 'playing' ? 'pause 1' : st === 'paused' ? 'pause 0' : 'play']);
  });
  $('previous').addEventListener('click', () => run(['previous']));
  $('next').addEventListener('click', () => run(['next']));
  var seek = $('seek'), release = () => { setTimeout(() => { S.seeking = false; }, 400); };
  seek.addEventListener('input', () => {
    S.seeking = true;
    showTimes(Number(seek.value), num(S.status && S.status.duration, 0));
  });
  seek.addEventListener('change', () => {
    var v = Number(seek.value);
    S.seeking = false;
    if (S.status) { S.status.elapsed = v; S.at = performance.now(); }
    run(['seekcur ' + v.toFixed(1)]);
  });
  seek.addEventListener('pointerup', release);
  seek.addEventListener('blur', release);
  var vol = $('volume'), volTimer = 0;
  var sendVol = () => { volTimer = 0; run(['setvol ' + Math.round(Number(vol.value))]); };
  vol.addEventListener('input', () => {
    S.volHeldUntil = performance.now() + 1500;
    setText('volume-value', vol.value);
    if (!volTimer) volTimer = setTimeout(sendVol, 200);
  });
  vol.addEventListener('change', () => {
    S.volHeldUntil = performance.now() + 1500;
    clearTimeout(volTimer); sendVol();
  });
  ['repeat', 'random', 'single', 'consume'].forEach(id => {
    $(id).addEventListener('click', () => run([id + ' ' + (S.status && on(S.status[id]) ? 0 : 1)]));
  });
  $('keylock').addEventListener('click', () => run(['keylock ' + (S.status && on(S.status.keysLocked) ? 0 : 1)]));
  var speed = $('speed');
  speed.addEventListener('input', () => { S.speedHeld = true; setText('speed-value', speedText(Number(speed.value))); });
  speed.addEventListener('change', () => {
    S.speedHeld = false;
    run(['speed ' + (Math.round(Number(speed.value) * 100) / 100)]);
  });
  $('speed-reset').addEventListener('click', () => run(['speed 1']));
  $('sleep').addEventListener('change', () => run(['sleep ' + $('sleep').value]));
  $('cover').addEventListener('error', () => { $('cover').hidden = true; $('cover-none').hidden = false; });

  // Library
  ['folders', 'artists', 'albums'].forEach(m => { $('lib-' + m).addEventListener('click', () => libMode(m)); });
  $('artist-tag').addEventListener('change', () => libMode('artists'));
  $('lib-up').addEventListener('click', () => { if (lib.stack.length > 1) { lib.stack.pop(); libShow(); } });
  $('search-form').addEventListener('submit', ev => {
    ev.preventDefault();
    var text = $('search-input').value.trim();
    if (!text) return;
    ['folders', 'artists', 'albums'].forEach(m => press('lib-' + m, false));
    lib.stack = [];
    libPush(searchView(text));
  });

  // Queue
  confirmTap($('queue-clear'), 'Tap again to clear', () => run(['clear']));

  // Upload
  $('upload-input').addEventListener('change', () => pickerFiles($('upload-input')));
  $('upload-folder-input').addEventListener('change', () => pickerFiles($('upload-folder-input')));
  var zone = $('drop-zone');
  ['dragenter', 'dragover'].forEach(t => {
    zone.addEventListener(t, ev => { ev.preventDefault(); if (S.canChange) zone.classList.add('over'); });
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', ev => {
    ev.preventDefault(); zone.classList.remove('over');
    if (!S.canChange) { flash('Log in to upload', true); return; }
    dropped(ev.dataTransfer);
  });
  // A drop that misses the zone must not navigate away from the page.
  ['dragover', 'drop'].forEach(t => { document.addEventListener(t, ev => ev.preventDefault()); });
  $('upload-clear').addEventListener('click', () => {
    document.querySelectorAll('#upload-list .ok, #upload-list .bad').forEach(e => e.remove());
    up.total -= up.done + up.failed; up.done = 0; up.failed = 0;
    summary();
  });

  // Cards
  $('card-link').addEventListener('click', () => linkCard(null));
  $('cards-refresh').addEventListener('click', () => loadCards());
  $('card-browse').addEventListener('click', () => {
    var box = $('card-browser'), open = box.hidden;
    box.hidden = !open;
    $('card-browse').setAttribute('aria-expanded', open ? 'true' : 'false');
    if (open) cardBrowse(cb.path);
  });
  $('card-browser-up').addEventListener('click', () => {
    cardBrowse(cb.path.indexOf('/') >= 0 ? cb.path.slice(0, cb.path.lastIndexOf('/')) : '');
  });
  $('card-browser-choose').addEventListener('click', () => { if (cb.path) choose(cb.path); });

  // Settings
  var ta = $('config-text');
  ta.addEventListener('input', () => { S.configDirty = true; gutter(false); });
  ta.addEventListener('scroll', () => { $('config-gutter').scrollTop = ta.scrollTop; });
  $('config-save').addEventListener('click', saveConfig);
  confirmTap($('config-revert'), 'Tap again to drop your edit', () => loadConfig(true), () => S.configDirty);

  document.addEventListener('visibilitychange', () => { if (!document.hidden) loop(); });
  // While paused nothing moves but the sleep timer's countdown.
  setInterval(() => { if (!raf) tick(); }, 1000);
}

function start() {
  wire();
  showTab((location.hash || '').slice(1) || 'now');
  loadSession();
  request('/api/status').then(r => {
    if (r.status === 200 && !S.fromEvents) applyStatus(r.body);
  });
  connect();
}
start();
})();
"""#
}
