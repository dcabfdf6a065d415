// The page's style, served at `/page.css`: light by default, dark when the phone asks
// for it; one section at a time on a phone, the player beside the chosen section on a
// wide screen.
extension PageAssets {
    public static let style: String = #"""
:root {
  color-scheme: light dark;
  --bg: #f5f5f7; --fg: #16171c; --dim: #5d6270; --panel: #ffffff; --line: #d8dae1;
  --accent: #2459c9; --accent-fg: #ffffff; --tint: #e3ebfb;
  --bad: #a8231b; --bad-bg: #fde8e6; --ok: #1d7a3a;
  --sung: #2459c9; --unsung: #8d93a1;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111217; --fg: #ecedf2; --dim: #a0a5b2; --panel: #1c1d24; --line: #31333d;
    --accent: #7aa7ff; --accent-fg: #0b1426; --tint: #1f2a44;
    --bad: #ffb4ab; --bad-bg: #4a1712; --ok: #7fd99a;
    --sung: #8fb6ff; --unsung: #6d7280;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html, body { height: 100%; margin: 0; }
body {
  display: flex; flex-direction: column; height: 100vh; height: 100dvh; overflow: hidden;
  background: var(--bg); color: var(--fg);
  font: 16px/1.4 system-ui, sans-serif;
  -webkit-text-size-adjust: 100%;
}
h1, h2 { margin: 0; }
h2 { font-size: 1.1rem; margin: 12px 0 8px; }
p { margin: 4px 0; overflow-wrap: anywhere; }
.dim { color: var(--dim); }
.small { font-size: .85rem; }
/* One line, cut with an ellipsis: long names never widen the page. */
header.top h1, nav.tabs button span, .artist, .album, .toggles button, .row-title, .row-sub, .up-name {
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
svg { width: 24px; height: 24px; fill: currentColor; flex: none; }

button, select, input, textarea, .btn { font: inherit; color: inherit; }
button, .btn, select {
  min-height: 44px; border-radius: 10px; border: 1px solid var(--line);
  background: var(--panel); padding: 0 14px; cursor: pointer;
}
button:disabled, select:disabled, input:disabled + .btn { opacity: .45; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible + .btn, a:focus-visible {
  outline: 2px solid var(--accent); outline-offset: 2px;
}
input[type=text], input[type=password], input[type=search] {
  min-height: 44px; min-width: 0; flex: 1; padding: 0 12px; border-radius: 10px;
  border: 1px solid var(--line); background: var(--panel);
}
input[type=range] { flex: 1; min-width: 0; height: 44px; margin: 0; accent-color: var(--accent); }
.primary, .transport .big, .toggle[aria-pressed=true] { background: var(--accent); color: var(--accent-fg); border-color: var(--accent); }
.primary { font-weight: 600; }
.chip { min-width: 44px; }
.round {
  width: 44px; min-width: 44px; height: 44px; padding: 0; border-radius: 50%;
  display: inline-flex; align-items: center; justify-content: center; flex: none;
}
.vh { position: absolute; width: 1px; height: 1px; opacity: 0; overflow: hidden; clip: rect(0 0 0 0); }

header.top {
  display: flex; align-items: center; gap: 8px; min-height: 44px; padding: 0 12px;
  border-bottom: 1px solid var(--line); background: var(--panel);
}
header.top h1 { font-size: 1.05rem; flex: 1; min-width: 0; }
.conn { font-size: .8rem; color: var(--dim); white-space: nowrap; }
.conn.live { color: var(--ok); }

nav.tabs { order: 9; display: flex; border-top: 1px solid var(--line); background: var(--panel); }
nav.tabs button {
  flex: 1 1 0; min-width: 0; min-height: 56px; padding: 4px 0; border: 0; border-radius: 0;
  background: none; display: flex; flex-direction: column; align-items: center; justify-content: center;
  font-size: .72rem; color: var(--dim);
}
nav.tabs button span { max-width: 100%; }
nav.tabs button[aria-selected=true] { color: var(--accent); font-weight: 600; }

.banner { padding: 10px 12px; background: var(--bad-bg); color: var(--bad); font-weight: 600; overflow-wrap: anywhere; }
.toast {
  position: fixed; left: 12px; right: 12px; bottom: 72px; z-index: 5; margin: 0 auto; max-width: 480px;
  padding: 10px 14px; border-radius: 10px; background: var(--fg); color: var(--bg);
  opacity: 0; pointer-events: none; transition: opacity .2s; overflow-wrap: anywhere;
}
.toast.show { opacity: .95; }
.toast.bad { background: var(--bad); color: var(--panel); }
.login { padding: 8px 12px 12px; background: var(--tint); border-bottom: 1px solid var(--line); }
.login h2 { margin-top: 4px; }
.error { color: var(--bad); min-height: 1.4em; overflow-wrap: anywhere; }

main { flex: 1; min-height: 0; overflow-y: auto; overflow-x: hidden; }
.view { display: none; padding: 12px; max-width: 760px; margin: 0 auto; }
.view.active { display: block; }
.line { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.bar { display: flex; gap: 8px; align-items: center; justify-content: space-between; margin-bottom: 6px; }
.field { display: flex; gap: 10px; align-items: center; margin: 6px 0; }
.field > label { width: 4.5em; flex: none; color: var(--dim); }
.field output { min-width: 3.2em; text-align: end; font-variant-numeric: tabular-nums; }
.field select { flex: 1; min-width: 0; }
.wide { width: 100%; }

/* Now playing */
.np { display: flex; flex-direction: column; align-items: center; gap: 10px; text-align: center; }
.cover-box {
  width: min(50vw, 30vh, 300px); aspect-ratio: 1; border-radius: 12px; overflow: hidden;
  background: var(--panel); border: 1px solid var(--line);
}
.cover-box img { width: 100%; height: 100%; object-fit: cover; display: block; }
.cover-none { width: 100%; height: 100%; display: flex; align-items: center; justify-content: center; color: var(--line); }
.cover-none svg { width: 40%; height: 40%; }
.meta { width: 100%; min-width: 0; }
.title { font-size: 1.2rem; line-height: 1.25; overflow-wrap: anywhere; }
.title:empty::before { content: "Nothing playing"; color: var(--dim); font-weight: 400; }
.album { color: var(--dim); }

.lyrics { text-align: center; margin: 10px 0 2px; }
.lyric { margin: 2px 0; min-height: 1.4em; overflow-wrap: anywhere; }
.lyric.near { color: var(--dim); opacity: .7; font-size: .95rem; }
.lyric.cur { font-size: 1.2rem; font-weight: 600; min-height: 1.6em; }
.kw {
  background-image: linear-gradient(var(--to, to right), var(--sung) var(--fill, 0%), var(--unsung) var(--fill, 0%));
  -webkit-background-clip: text; background-clip: text; color: transparent;
}
.lyric.rtl { --to: to left; }
.lyrics-plain { max-height: 40vh; overflow-y: auto; white-space: pre-wrap; overflow-wrap: anywhere; color: var(--dim); }

.seekrow { margin-top: 6px; }
.seekrow input { width: 100%; display: block; }
.times { display: flex; justify-content: space-between; font-size: .85rem; color: var(--dim); font-variant-numeric: tabular-nums; }
.transport { display: flex; justify-content: center; align-items: center; gap: 24px; margin: 4px 0 10px; }
.transport .round { width: 56px; height: 56px; }
.transport .big { width: 72px; height: 72px; }
.transport .big svg { width: 36px; height: 36px; }
#play-pause .i-pause, #play-pause.is-playing .i-play { display: none; }
#play-pause.is-playing .i-pause { display: block; }
.toggles { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 6px; margin: 10px 0; }
.toggles button { padding: 0 4px; font-size: .85rem; }

/* Lists */
.seg { display: grid; grid-template-columns: repeat(3, 1fr); gap: 6px; margin: 8px 0; }
.seg button[aria-pressed=true] { background: var(--tint); border-color: var(--accent); font-weight: 600; }
.crumb { display: flex; align-items: center; gap: 8px; margin: 6px 0; min-height: 44px; }
.path { flex: 1; min-width: 0; overflow-wrap: anywhere; font-weight: 600; }
.check { display: flex; align-items: center; gap: 6px; min-height: 44px; font-size: .9rem; white-space: nowrap; }
.check input { width: 22px; height: 22px; accent-color: var(--accent); }
.list { list-style: none; margin: 0; padding: 0; }
.row { display: flex; align-items: center; gap: 4px; border-bottom: 1px solid var(--line); min-height: 52px; }
.row-main {
  flex: 1; min-width: 0; min-height: 52px; display: flex; align-items: center; gap: 10px;
  padding: 4px 2px; border: 0; border-radius: 0; background: none; text-align: start;
}
.row-main svg { color: var(--dim); }
.row-text { min-width: 0; flex: 1; display: block; }
.row-title, .row-sub { display: block; }
.row-sub { color: var(--dim); font-size: .85rem; }
.row .round { border-color: transparent; background: none; }
.row.current { background: var(--tint); }
.row.current .row-title { font-weight: 700; color: var(--accent); }
.row-num { color: var(--dim); font-size: .8rem; min-width: 2ch; text-align: end; font-variant-numeric: tabular-nums; }
.empty { padding: 16px 4px; color: var(--dim); }
.more { padding: 8px 0; }
.more button { width: 100%; }
.bad { color: var(--bad); }
.good { color: var(--ok); }

/* Upload */
.drop {
  border: 2px dashed var(--line); border-radius: 12px; padding: 14px; text-align: center; margin-bottom: 12px;
}
.drop.over { border-color: var(--accent); background: var(--tint); }
.pickers { display: flex; gap: 8px; justify-content: center; flex-wrap: wrap; margin: 8px 0; }
.btn { display: inline-flex; align-items: center; }
.up { display: block; padding: 8px 0; }
.up-name { display: block; }
.up progress { width: 100%; height: 8px; accent-color: var(--accent); display: block; margin: 4px 0; }
.up-state { font-size: .85rem; color: var(--dim); overflow-wrap: anywhere; }
.up.bad .up-state { color: var(--bad); }
.up.ok .up-state { color: var(--ok); }

/* Cards */
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: 12px; padding: 4px 12px 8px; }
.picker { border: 1px solid var(--line); border-radius: 10px; padding: 0 8px; margin: 6px 0; max-height: 45vh; overflow-y: auto; }
#card-unknown { overflow-wrap: anywhere; }
.card { padding: 6px 0; flex-wrap: wrap; justify-content: flex-end; }
.card .row-main { flex-basis: 100%; min-height: 0; }
.card .row-title, .card .row-sub { white-space: normal; overflow-wrap: anywhere; }

/* Settings */
.editor {
  display: flex; height: 55vh; min-height: 200px; border: 1px solid var(--line); border-radius: 10px;
  overflow: hidden; background: var(--panel);
}
.gutter, #config-text { font: 15px/22px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; padding-top: 8px; }
.gutter {
  flex: none; min-width: 3.2em; overflow: hidden; padding: 8px 6px 60px; text-align: end;
  color: var(--dim); background: var(--bg); border-inline-end: 1px solid var(--line); user-select: none;
}
.gutter div { height: 22px; }
.gutter .err { background: var(--bad-bg); color: var(--bad); font-weight: 700; }
.gutter .here { outline: 2px solid var(--bad); outline-offset: -2px; }
#config-text {
  flex: 1; min-width: 0; border: 0; padding: 8px; resize: none; white-space: pre; overflow: auto;
  background: var(--panel); tab-size: 4; font-size: 16px;
}
#config-text:focus { outline: none; }
.errors { list-style: none; padding: 0; margin: 8px 0; }
.errors button { width: 100%; text-align: start; color: var(--bad); background: var(--bad-bg); border-color: var(--bad); margin: 3px 0; padding: 8px 12px; overflow-wrap: anywhere; }

/* A wide screen: the player on the left, the chosen section beside it. */
@media (min-width: 960px) {
  nav.tabs { order: 0; border-top: 0; border-bottom: 1px solid var(--line); }
  nav.tabs button { flex-direction: row; gap: 6px; font-size: .9rem; min-height: 48px; }
  .banner, .login, .toast { order: 1; }
  main { order: 2; display: grid; grid-template-columns: minmax(360px, 440px) minmax(0, 1fr); overflow: hidden; }
  .view { height: 100%; overflow-y: auto; max-width: none; margin: 0; padding: 16px 20px; }
  #view-now { display: block; border-inline-end: 1px solid var(--line); }
  .cover-box { width: min(28vh, 240px); }
  .view.side:not(#view-now) { display: block; }
  .toast { bottom: 20px; }
}
"""#
}
