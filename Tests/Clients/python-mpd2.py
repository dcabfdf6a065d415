#!/usr/bin/python3
"""python-mpd2 (Debian's python3-mpd) against one server: about seventy calls, each
printed as one JSON line, {"call": ..., "result": ...} or {"call": ..., "error": ...},
for the Swift test to hold the box's lines against MPD's (LibraryClientsAgainstMPDTests).
Starts from a stopped, empty queue, and leaves the server so."""
import hashlib, json, sys, threading, time
from mpd import MPDClient, CommandError

socket = sys.argv[1]
client, other = MPDClient(), MPDClient()
for connection in (client, other):
    # A server that never answers fails the run instead of hanging it, in idle too.
    connection.timeout = connection.idletimeout = 10
    connection.connect(socket)


def shown(value):
    """Pictures as their length and digest; everything else as JSON has it."""
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": len(value), "sha1": hashlib.sha1(value).hexdigest()}
    if isinstance(value, dict):
        return {k: shown(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [shown(v) for v in value]
    return value


def call(name, action):
    try:
        line = {"call": name, "result": shown(action())}
    except CommandError as error:
        line = {"call": name, "error": str(error)}
    print(json.dumps(line, ensure_ascii=False, sort_keys=True), flush=True)


song = "Artist One/First Album/01 Opening.flac"
call("mpd_version", lambda: client.mpd_version)
call("ping", client.ping)
call("status", client.status)
call("stats", client.stats)
call("currentsong", client.currentsong)
call("commands", client.commands)
call("notcommands", client.notcommands)
call("tagtypes", client.tagtypes)
call("urlhandlers", client.urlhandlers)
call("lsinfo root", client.lsinfo)
call("lsinfo album", lambda: client.lsinfo("Artist One/First Album"))
call("listall", lambda: client.listall("Various"))
call("listallinfo", lambda: client.listallinfo("Ünïcødé"))
call("listfiles", lambda: sorted(client.listfiles("Artist One/First Album"), key=lambda e: str(e)))
call("list artist", lambda: client.list("artist"))
call("list album group", lambda: client.list("album", "group", "albumartist"))
call("list filtered", lambda: client.list("title", "(genre == 'Pop')"))
call("find", lambda: client.find("artist", "Artist One"))
call("find expression", lambda: client.find("(albumartist == 'Various Artists')", "sort", "title"))
call("search", lambda: client.search("any", "a", "window", "0:4"))
call("count", lambda: client.count("genre", "Rock"))
call("count group", lambda: client.count("group", "artist"))
call("readcomments", lambda: client.readcomments(song))
call("add", lambda: client.add("Artist One"))
call("findadd", lambda: client.findadd("album", "Two Discs"))
call("searchadd", lambda: client.searchadd("title", "song"))
call("addid", lambda: type(client.addid("Ünïcødé/Björk 曲.flac", 1)).__name__)
call("playlistinfo", client.playlistinfo)
call("delete", lambda: client.delete(0))
call("move", lambda: client.move(0, 3))
call("prio", lambda: client.prio(7, "1:3"))
call("playlistfind", lambda: client.playlistfind("album", "Two Discs"))
call("playlistsearch", lambda: client.playlistsearch("title", "a"))
call("plchanges", lambda: len(client.plchanges(0)))
call("play", lambda: client.play(2))
call("pause", lambda: client.pause(1))


def opened():
    """Until the song is open (its duration known): the box drops a seek that comes
    sooner, where MPD's waits for its decoder."""
    for _ in range(200):
        if "duration" in client.status():
            return
        time.sleep(0.05)


opened()
call("seekcur", lambda: client.seekcur(12))
call("status paused", client.status)
call("currentsong paused", client.currentsong)
call("setvol", lambda: client.setvol(40))
call("modes", lambda: [client.repeat(1), client.random(1), client.single("oneshot"), client.consume(1)])
call("status modes", client.status)
call("modes off", lambda: [client.repeat(0), client.random(0), client.single(0), client.consume(0)])
call("replay_gain_mode", lambda: client.replay_gain_mode("track"))
call("replay_gain_status", client.replay_gain_status)
call("replay_gain off", lambda: client.replay_gain_mode("off"))
call("outputs", client.outputs)
call("disableoutput", lambda: [client.disableoutput(0), client.outputs()])
call("enableoutput", lambda: [client.enableoutput(0), client.outputs()])
call("listplaylists", lambda: [p["playlist"] for p in client.listplaylists()])
call("listplaylist", lambda: client.listplaylist("saved"))
call("listplaylistinfo", lambda: client.listplaylistinfo("saved"))
call("save", lambda: [client.save("mix"), client.playlistadd("mix", "Ogg/Song.ogg"), client.listplaylist("mix")])
call("rm", lambda: [client.rm("mix"), [p["playlist"] for p in client.listplaylists()]])
call("albumart", lambda: client.albumart(song))
call("readpicture", lambda: client.readpicture(song))
call("sticker_set", lambda: client.sticker_set("song", song, "rating", "5"))
call("sticker_get", lambda: client.sticker_get("song", song, "rating"))
call("sticker_list", lambda: client.sticker_list("song", song))
call("sticker_find", lambda: client.sticker_find("song", "Artist One", "rating"))
call("sticker_delete", lambda: [client.sticker_delete("song", song, "rating"), client.sticker_list("song", song)])
call("subscribe", lambda: client.subscribe("chat"))
call("channels", client.channels)
call("readmessages", lambda: [other.sendmessage("chat", "hello"), client.readmessages()])
call("unsubscribe", lambda: [client.unsubscribe("chat"), client.channels()])


def idled():
    """What this client changed itself comes first, sorted; then another's change,
    made a moment after this client waits (or before: then it is pending)."""
    own = sorted(client.idle())
    threading.Timer(0.2, lambda: other.setvol(60)).start()
    return [own, client.idle("mixer", "options")]


call("idle", idled)


def command_list():
    client.command_list_ok_begin()
    client.ping()
    client.status()
    client.currentsong()
    results = client.command_list_end()
    return [results[0], results[1]["state"], results[2].get("file")]


call("command list", command_list)
call("error play", lambda: client.play(99))
call("error unknown song", lambda: client.add("Nowhere/nothing.flac"))
call("error playlist", lambda: client.listplaylist("absent"))
call("stop", lambda: [client.stop(), client.clear(), client.setvol(100)])
call("status stopped", client.status)
client.disconnect()
other.disconnect()
