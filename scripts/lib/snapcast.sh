# scripts/install --snapcast: Debian's snapserver fed by the box through a pipe, with the
# box's stream plugin for metadata and control, and a snapclient playing the box's own
# room. Sourced by scripts/install, which has set root, etc, config, binary and added().

stream=/run/snapserver/jukebox
plugin=/usr/local/lib/jukebox/snapcast-plugin

install_snapcast() {
    # A root filesystem being built brings its own packages.
    [ -n "$root" ] || need_packages snapserver snapclient

    say "Snapcast: /etc/jukebox/snapserver.conf (the box's stream)"
    if [ ! -e "$etc/snapserver.conf" ]; then
        cat > "$etc/snapserver.conf" <<CONF
# snapserver's config for the jukebox (scripts/install --snapcast). snapserver reads it
# instead of /etc/snapserver.conf (the drop-in snapserver.service.d/jukebox.conf says so).
# The sampleformat must equal [snapcast] format in jukebox.toml, and buffer its
# latency_ms. dryout_ms keeps the rooms fed with silence through a pause of up to an
# hour: snapserver 0.26 drops some 50 ms when a stream it let go idle comes back.
# Other settings: man snapserver, or /etc/snapserver.conf's comments.
[stream]
source = pipe://$stream?name=Jukebox&sampleformat=48000:16:2&mode=create&dryout_ms=3600000&controlscript=$plugin
buffer = 1000
CONF
        added snapcast-conf
    fi

    # snapserver makes the pipe (mode=create) in a folder of its own under /run.
    mkdir -p "$root/etc/systemd/system/snapserver.service.d"
    cat > "$root/etc/systemd/system/snapserver.service.d/jukebox.conf" <<UNIT
# Added by the jukebox (scripts/install --snapcast): the box's stream, in /run/snapserver.
[Service]
RuntimeDirectory=snapserver
ExecStart=
ExecStart=/usr/bin/snapserver --logging.sink=system --server.datadir=\${HOME} --config=/etc/jukebox/snapserver.conf \$SNAPSERVER_OPTS
UNIT
    # The box's own room: a snapclient on this machine, on its default sound card.
    mkdir -p "$root/etc/systemd/system/snapclient.service.d"
    cat > "$root/etc/systemd/system/snapclient.service.d/jukebox.conf" <<UNIT
# Added by the jukebox (scripts/install --snapcast): this box's own room joins the group,
# through the snapserver on this machine.
[Unit]
After=snapserver.service
[Service]
ExecStart=
ExecStart=/usr/bin/snapclient --logsink=system --host=127.0.0.1 \$SNAPCLIENT_OPTS
UNIT
    added snapcast-units

    # snapserver starts its plugin by a path with no arguments of its own: the binary,
    # under a name that makes it the plugin.
    mkdir -p "$root$(dirname "$plugin")"
    ln -sf /usr/local/bin/jukebox "$root$plugin"
    added snapcast-plugin

    # A config still playing to "default" plays to the stream; the box's room hears it
    # through its snapclient. An edited device is the admin's: say what to set instead.
    if grep -qx 'device = "default"' "$config"; then
        sed -i "s|^device = \"default\"\$|device = \"snapcast:$stream\"|" "$config"
        say "Snapcast: /etc/jukebox/jukebox.toml plays to snapcast:$stream"
    elif ! grep -q "snapcast:$stream" "$config"; then
        say "Snapcast: set device = \"snapcast:$stream\" under [audio] in /etc/jukebox/jukebox.toml"
    fi
}

say_more_rooms() {
    local address
    address=$(hostname -I 2>/dev/null | awk '{print $1}')
    say "more rooms: on each board, sudo apt-get install snapclient, then in /etc/default/snapclient"
    say "  SNAPCLIENT_OPTS=\"--host=${address:-THIS_BOX_ADDRESS}\" and sudo systemctl restart snapclient"
}
