// The page's markup, served at `/`.
//
// Stable ids a test can drive (kept in this list when the markup changes):
//   header, banners: box-name, conn, trouble, message
//   login:           login, login-form, login-password, login-submit, login-error
//   tabs:            tab-now, tab-library, tab-queue, tab-upload, tab-cards, tab-settings
//   sections:        view-now, view-library, view-queue, view-upload, view-cards, view-settings
//   now playing:     cover, cover-none, title, artist, album, queue-place,
//                    lyrics, lyric-prev, lyric-current, lyric-next, lyrics-plain,
//                    seek, elapsed, remaining, previous, play-pause, next,
//                    volume, volume-value, repeat, random, single, consume,
//                    speed, speed-value, speed-reset, sleep, sleep-left, keylock
//   library:         search-form, search-input, search-submit, lib-folders, lib-artists,
//                    lib-albums, lib-up, lib-path, artist-tag-box, artist-tag,
//                    library-list (rows: li[data-uri] or li[data-name] with
//                    .row-main, .row-add, .row-play), library-list-more
//   queue:           queue-count, queue-clear, queue-list (rows: li[data-id][data-pos]
//                    with .row-main = play it, .row-remove), queue-list-more
//   upload:          drop-zone, upload-input, upload-folder-input, upload-summary,
//                    upload-clear, upload-list (rows: li[data-path] with progress, .up-state)
//   cards:           card-unknown, card-folder, card-browse, card-browser,
//                    card-browser-up, card-browser-path, card-browser-choose,
//                    card-browser-list, card-link, cards-refresh, card-message,
//                    cards-list (rows: li[data-card] with .card-unlink, .card-relink)
//   settings:        config-path, config-gutter, config-text, config-save,
//                    config-revert, config-status, config-errors (buttons .err-go), logout
extension PageAssets {
    public static let html: String = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Jukebox</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/page.css">
<script src="/page.js" defer></script>
</head>
<body data-state="stopped">
<div id="icons" hidden>
<svg data-icon="add" viewBox="0 0 24 24" aria-hidden="true"><path d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z"/></svg>
<svg data-icon="play" viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5v14l11-7z"/></svg>
<svg data-icon="remove" viewBox="0 0 24 24" aria-hidden="true"><path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z"/></svg>
<svg data-icon="folder" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 5h7l2 2h9v12H3z"/></svg>
<svg data-icon="note" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3v10.6A4 4 0 1 0 14 17V7h5V3z"/></svg>
<svg data-icon="person" viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8zm0 10c4.4 0 8 2 8 4.5V20H4v-1.5C4 16 7.6 14 12 14z"/></svg>
<svg data-icon="album" viewBox="0 0 24 24" aria-hidden="true"><path fill-rule="evenodd" d="M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18zm0 7a2 2 0 1 0 0 4 2 2 0 0 0 0-4z"/></svg>
<svg data-icon="list" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h13v2H3zm0 5h13v2H3zm0 5h9v2H3zm14-1V9l5 3z"/></svg>
</div>

<header class="top">
<h1 id="box-name">Jukebox</h1>
<span id="conn" class="conn" role="status">Connecting…</span>
</header>

<nav class="tabs" role="tablist" aria-label="Sections">
<button id="tab-now" role="tab" aria-controls="view-now" aria-selected="true"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3v10.6A4 4 0 1 0 14 17V7h5V3z"/></svg><span>Playing</span></button>
<button id="tab-library" role="tab" aria-controls="view-library" aria-selected="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 4h4v16H3zm6 0h4v16H9zm6.4 1.1 3.8-1 3.4 15.4-3.8 1z"/></svg><span>Library</span></button>
<button id="tab-queue" role="tab" aria-controls="view-queue" aria-selected="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h13v2H3zm0 5h13v2H3zm0 5h9v2H3zm14-1V9l5 3z"/></svg><span>Queue</span></button>
<button id="tab-upload" role="tab" aria-controls="view-upload" aria-selected="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3 6 9h4v6h4V9h4zM5 18h14v2H5z"/></svg><span>Upload</span></button>
<button id="tab-cards" role="tab" aria-controls="view-cards" aria-selected="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path fill-rule="evenodd" d="M3 6h18v12H3zm2 2v2h14V8z"/></svg><span>Cards</span></button>
<button id="tab-settings" role="tab" aria-controls="view-settings" aria-selected="false"><svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 6h10v2H4zm14 0h2v2h-2zM4 16h4v2H4zm8 0h8v2h-8zM14 4h2v6h-2zM8 14h2v6H8z"/></svg><span>Settings</span></button>
</nav>

<div id="trouble" class="banner" role="alert" hidden></div>
<div id="message" class="toast" role="status" aria-live="polite"></div>

<section id="login" class="login" aria-labelledby="login-title" hidden>
<form id="login-form">
<h2 id="login-title">Log in to change things</h2>
<label for="login-password">Password</label>
<div class="line">
<input id="login-password" type="password" autocomplete="current-password" required>
<button id="login-submit" class="primary" type="submit">Log in</button>
</div>
<p id="login-error" class="error" role="alert"></p>
</form>
</section>

<main id="main">
<section id="view-now" class="view active" role="tabpanel" aria-labelledby="tab-now">
<div class="np">
<div class="cover-box">
<img id="cover" alt="Cover" hidden>
<div id="cover-none" class="cover-none" aria-hidden="true"><svg viewBox="0 0 24 24"><path d="M12 3v10.6A4 4 0 1 0 14 17V7h5V3z"/></svg></div>
</div>
<div class="meta">
<h2 id="title" class="title"></h2>
<p id="artist" class="artist"></p>
<p id="album" class="album"></p>
<p id="queue-place" class="dim small"></p>
</div>
</div>

<div id="lyrics" class="lyrics" hidden>
<p id="lyric-prev" class="lyric near" dir="auto"></p>
<p id="lyric-current" class="lyric cur" dir="auto"></p>
<p id="lyric-next" class="lyric near" dir="auto"></p>
<div id="lyrics-plain" class="lyrics-plain" dir="auto" hidden></div>
</div>

<div class="seekrow">
<input id="seek" class="change" type="range" min="0" max="0" step="0.1" value="0" aria-label="Position in the track">
<div class="times"><span id="elapsed">0:00</span><span id="remaining"></span></div>
</div>

<div class="transport">
<button id="previous" class="round change" aria-label="Previous track"><svg viewBox="0 0 24 24"><path d="M6 6h2v12H6zm3.5 6 8.5 6V6z"/></svg></button>
<button id="play-pause" class="round big change" aria-label="Play"><svg class="i-play" viewBox="0 0 24 24"><path d="M8 5v14l11-7z"/></svg><svg class="i-pause" viewBox="0 0 24 24"><path d="M6 5h4v14H6zm8 0h4v14h-4z"/></svg></button>
<button id="next" class="round change" aria-label="Next track"><svg viewBox="0 0 24 24"><path d="M16 6h2v12h-2zM6 18l8.5-6L6 6z"/></svg></button>
</div>

<div class="field">
<label for="volume">Volume</label>
<input id="volume" class="change" type="range" min="0" max="100" step="1" value="0">
<output id="volume-value" for="volume">–</output>
</div>

<div class="toggles" role="group" aria-label="Play modes">
<button id="repeat" class="toggle change" aria-pressed="false">Repeat</button>
<button id="random" class="toggle change" aria-pressed="false">Random</button>
<button id="single" class="toggle change" aria-pressed="false">Single</button>
<button id="consume" class="toggle change" aria-pressed="false">Consume</button>
</div>

<div class="field">
<label for="speed">Speed</label>
<input id="speed" class="change" type="range" min="0.5" max="2" step="0.05" value="1">
<output id="speed-value" for="speed">1×</output>
<button id="speed-reset" class="chip change" aria-label="Normal speed">Reset</button>
</div>

<div class="field">
<label for="sleep">Sleep</label>
<select id="sleep" class="change">
<option value="off">Off</option>
<option value="15">15 min</option>
<option value="30">30 min</option>
<option value="45">45 min</option>
<option value="60">60 min</option>
<option value="end-of-track">End of track</option>
<option value="on" disabled hidden>On</option>
</select>
<span id="sleep-left" class="dim"></span>
</div>

<div class="field">
<button id="keylock" class="toggle change wide" aria-pressed="false">Lock the box's keys</button>
</div>
</section>

<section id="view-library" class="view" role="tabpanel" aria-labelledby="tab-library">
<form id="search-form" class="line" role="search">
<input id="search-input" type="search" placeholder="Search the library" aria-label="Search the library" enterkeyhint="search" autocapitalize="off">
<button id="search-submit" class="round" type="submit" aria-label="Search"><svg viewBox="0 0 24 24"><path d="M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z"/></svg></button>
</form>
<div class="seg" role="group" aria-label="Browse by">
<button id="lib-folders" aria-pressed="true">Folders</button>
<button id="lib-artists" aria-pressed="false">Artists</button>
<button id="lib-albums" aria-pressed="false">Albums</button>
</div>
<div class="crumb">
<button id="lib-up" class="round" aria-label="Back"><svg viewBox="0 0 24 24"><path d="M20 11H8l5-5-1.4-1.4L4.2 12l7.4 7.4L13 18l-5-5h12z"/></svg></button>
<span id="lib-path" class="path"></span>
<label id="artist-tag-box" class="check" hidden><input id="artist-tag" type="checkbox" checked> Album artists</label>
</div>
<ul id="library-list" class="list"></ul>
</section>

<section id="view-queue" class="view" role="tabpanel" aria-labelledby="tab-queue">
<div class="bar">
<span id="queue-count" class="dim"></span>
<button id="queue-clear" class="chip change">Clear the queue</button>
</div>
<ul id="queue-list" class="list"></ul>
</section>

<section id="view-upload" class="view" role="tabpanel" aria-labelledby="tab-upload">
<div id="drop-zone" class="drop">
<p>Drop music files or folders here, or choose them:</p>
<div class="pickers">
<input id="upload-input" class="change vh" type="file" multiple>
<label for="upload-input" class="btn">Choose files</label>
<input id="upload-folder-input" class="change vh" type="file" multiple webkitdirectory>
<label for="upload-folder-input" class="btn">Choose a folder</label>
</div>
<p class="dim small">They go to the library's Uploads folder, two at a time.</p>
</div>
<div class="bar">
<span id="upload-summary" class="dim"></span>
<button id="upload-clear" class="chip">Clear finished</button>
</div>
<ul id="upload-list" class="list"></ul>
</section>

<section id="view-cards" class="view" role="tabpanel" aria-labelledby="tab-cards">
<div class="panel">
<h2>Link a new card</h2>
<p id="card-unknown">No new card read yet. Hold a new card to the reader, then tap Refresh.</p>
<label for="card-folder">Folder it plays</label>
<div class="line">
<input id="card-folder" type="text" placeholder="Albums/Some album" autocapitalize="off" autocomplete="off" spellcheck="false">
<button id="card-browse" class="chip" aria-expanded="false" aria-controls="card-browser">Browse</button>
</div>
<div id="card-browser" class="picker" hidden>
<div class="crumb">
<button id="card-browser-up" class="round" aria-label="Up one folder"><svg viewBox="0 0 24 24"><path d="M20 11H8l5-5-1.4-1.4L4.2 12l7.4 7.4L13 18l-5-5h12z"/></svg></button>
<span id="card-browser-path" class="path"></span>
<button id="card-browser-choose" class="chip">Choose this one</button>
</div>
<ul id="card-browser-list" class="list"></ul>
</div>
<div class="line">
<button id="card-link" class="primary change">Link the card just read</button>
<button id="cards-refresh" class="chip">Refresh</button>
</div>
<p id="card-message" role="status"></p>
</div>
<h2>Cards</h2>
<ul id="cards-list" class="list"></ul>
</section>

<section id="view-settings" class="view" role="tabpanel" aria-labelledby="tab-settings">
<h2>Configuration</h2>
<p id="config-path" class="dim small"></p>
<div class="editor">
<div id="config-gutter" class="gutter" aria-hidden="true"></div>
<textarea id="config-text" class="change-text" wrap="off" spellcheck="false" autocapitalize="off" autocomplete="off" aria-label="Configuration file"></textarea>
</div>
<ul id="config-errors" class="errors"></ul>
<div class="line">
<button id="config-save" class="primary change">Save</button>
<button id="config-revert" class="chip">Reload from the box</button>
</div>
<p id="config-status" role="status"></p>
<h2>Session</h2>
<button id="logout" class="chip">Log out</button>
</section>
</main>
</body>
</html>
"""#
}
