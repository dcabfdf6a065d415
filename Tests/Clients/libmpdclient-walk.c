/*
 * libmpdclient (Debian's libmpdclient-dev) against one server: connection, status,
 * stats, database, search, queue, player, mixer, outputs, stored playlists,
 * stickers, messages, pictures and idle, each printed as "key: value" lines under a
 * "# section" line, for the Swift test to hold the box's lines against MPD's
 * (LibraryClientsAgainstMPDTests). Our own walk over the library's API: Debian's package
 * ships no example program to run instead.
 *
 * Usage: libmpdclient-walk SOCKET. Starts from a stopped, empty queue.
 */
#include <mpd/client.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct mpd_connection *connection;

static void section(const char *name) { printf("# %s\n", name); }

/* A failed command prints the server's error and clears it, and the walk goes on. */
static void check(const char *what) {
    if (mpd_connection_get_error(connection) == MPD_ERROR_SUCCESS) return;
    printf("error %s: %d %s\n", what, (int)mpd_connection_get_server_error(connection),
           mpd_connection_get_error_message(connection));
    if (!mpd_connection_clear_error(connection)) {
        printf("error %s: connection lost\n", what);
        exit(1);
    }
}

static void print_pairs(const char *what) {
    struct mpd_pair *pair;
    while ((pair = mpd_recv_pair(connection)) != NULL) {
        printf("%s: %s\n", pair->name, pair->value);
        mpd_return_pair(connection, pair);
    }
    mpd_response_finish(connection);
    check(what);
}

static void print_song(const struct mpd_song *song) {
    printf("song: %s\n", mpd_song_get_uri(song));
    static const enum mpd_tag_type tags[] = {
        MPD_TAG_ARTIST, MPD_TAG_ALBUM, MPD_TAG_ALBUM_ARTIST, MPD_TAG_TITLE, MPD_TAG_TRACK,
        MPD_TAG_DISC, MPD_TAG_DATE, MPD_TAG_GENRE, MPD_TAG_COMPOSER,
    };
    for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
        const char *value;
        for (unsigned i = 0; (value = mpd_song_get_tag(song, tags[t], i)) != NULL; i++)
            printf("  %s: %s\n", mpd_tag_name(tags[t]), value);
    }
    printf("  duration_ms: %u\n", mpd_song_get_duration_ms(song));
    if (mpd_song_get_id(song) != 0) printf("  id: %u\n", mpd_song_get_id(song));
    if (mpd_song_get_id(song) != 0) printf("  pos: %u\n", mpd_song_get_pos(song));
    if (mpd_song_get_prio(song) != 0) printf("  prio: %u\n", mpd_song_get_prio(song));
}

static void print_entities(const char *what) {
    struct mpd_entity *entity;
    while ((entity = mpd_recv_entity(connection)) != NULL) {
        switch (mpd_entity_get_type(entity)) {
        case MPD_ENTITY_TYPE_DIRECTORY:
            printf("directory: %s\n", mpd_directory_get_path(mpd_entity_get_directory(entity)));
            break;
        case MPD_ENTITY_TYPE_SONG:
            print_song(mpd_entity_get_song(entity));
            break;
        case MPD_ENTITY_TYPE_PLAYLIST:
            printf("playlist: %s\n", mpd_playlist_get_path(mpd_entity_get_playlist(entity)));
            break;
        default:
            printf("entity: unknown\n");
        }
        mpd_entity_free(entity);
    }
    mpd_response_finish(connection);
    check(what);
}

static void print_songs(const char *what) {
    struct mpd_song *song;
    while ((song = mpd_recv_song(connection)) != NULL) {
        print_song(song);
        mpd_song_free(song);
    }
    mpd_response_finish(connection);
    check(what);
}

static void print_status(void) {
    struct mpd_status *status = mpd_run_status(connection);
    check("status");
    if (status == NULL) return;
    static const char *states[] = {"unknown", "stop", "play", "pause"};
    printf("state: %s\n", states[mpd_status_get_state(status)]);
    printf("volume: %d\n", mpd_status_get_volume(status));
    printf("repeat: %d random: %d single: %d consume: %d\n", mpd_status_get_repeat(status),
           mpd_status_get_random(status), mpd_status_get_single(status), mpd_status_get_consume(status));
    printf("queue_length: %u\n", mpd_status_get_queue_length(status));
    printf("queue_version: %u\n", mpd_status_get_queue_version(status));
    printf("song_pos: %d\n", mpd_status_get_song_pos(status));
    printf("next_song_pos: %d\n", mpd_status_get_next_song_pos(status));
    printf("elapsed_ms: %u\n", mpd_status_get_elapsed_ms(status));
    printf("total_time: %u\n", mpd_status_get_total_time(status));
    printf("crossfade: %u\n", mpd_status_get_crossfade(status));
    printf("update_id: %u\n", mpd_status_get_update_id(status));
    const struct mpd_audio_format *format = mpd_status_get_audio_format(status);
    if (format != NULL)
        printf("audio: %u:%u:%u\n", format->sample_rate, format->bits, format->channels);
    if (mpd_status_get_error(status) != NULL) printf("error: %s\n", mpd_status_get_error(status));
    mpd_status_free(status);
}

/* Until the song is open (its duration known): the box drops a seek that comes
 * sooner, where MPD's waits for its decoder. */
static void wait_until_opened(void) {
    for (int tries = 0; tries < 200; tries++) {
        struct mpd_status *status = mpd_run_status(connection);
        check("status");
        unsigned total = status != NULL ? mpd_status_get_total_time(status) : 0;
        if (status != NULL) mpd_status_free(status);
        if (total > 0) return;
        usleep(50000);
    }
}

/* What idle reports, as names, once another connection has set the volume. */
static void print_idle(struct mpd_connection *other) {
    mpd_send_idle_mask(connection, MPD_IDLE_MIXER | MPD_IDLE_OPTIONS);
    mpd_run_set_volume(other, 60);
    enum mpd_idle events = mpd_recv_idle(connection, false);
    check("idle");
    for (unsigned bit = 1; bit != 0 && bit <= MPD_IDLE_MESSAGE * 2; bit <<= 1)
        if ((events & bit) != 0) printf("idle: %s\n", mpd_idle_name((enum mpd_idle)bit));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s SOCKET\n", argv[0]);
        return 2;
    }
    const char *song = "Artist One/First Album/01 Opening.flac";
    connection = mpd_connection_new(argv[1], 0, 10000);
    struct mpd_connection *other = mpd_connection_new(argv[1], 0, 10000);
    if (mpd_connection_get_error(connection) != MPD_ERROR_SUCCESS ||
        mpd_connection_get_error(other) != MPD_ERROR_SUCCESS) {
        fprintf(stderr, "connect: %s\n", mpd_connection_get_error_message(connection));
        return 1;
    }

    section("connection");
    const unsigned *version = mpd_connection_get_server_version(connection);
    printf("version: %u.%u.%u\n", version[0], version[1], version[2]);

    section("status");
    print_status();

    section("stats");
    struct mpd_stats *stats = mpd_run_stats(connection);
    check("stats");
    if (stats != NULL) {
        printf("artists: %u albums: %u songs: %u\n", mpd_stats_get_number_of_artists(stats),
               mpd_stats_get_number_of_albums(stats), mpd_stats_get_number_of_songs(stats));
        printf("db_play_time: %lu\n", mpd_stats_get_db_play_time(stats));
        printf("uptime: %lu\n", mpd_stats_get_uptime(stats));
        printf("db_update_time: %lu\n", mpd_stats_get_db_update_time(stats));
        printf("play_time: %lu\n", mpd_stats_get_play_time(stats));
        mpd_stats_free(stats);
    }

    section("tag types");
    mpd_send_list_tag_types(connection);
    print_pairs("tagtypes");

    section("commands");
    mpd_send_allowed_commands(connection);
    print_pairs("commands");

    section("lsinfo root");
    mpd_send_list_meta(connection, "");
    print_entities("lsinfo");

    section("listallinfo");
    mpd_send_list_all_meta(connection, "");
    print_entities("listallinfo");

    section("find artist");
    mpd_search_db_songs(connection, true);
    mpd_search_add_tag_constraint(connection, MPD_OPERATOR_DEFAULT, MPD_TAG_ARTIST, "Band A");
    mpd_search_commit(connection);
    print_songs("find");

    section("search expression");
    mpd_search_db_songs(connection, false);
    mpd_search_add_expression(connection, "(album contains 'disc')");
    mpd_search_add_sort_tag(connection, MPD_TAG_TITLE, true);
    mpd_search_add_window(connection, 0, 2);
    mpd_search_commit(connection);
    print_songs("search");

    section("list album group albumartist");
    mpd_search_db_tags(connection, MPD_TAG_ALBUM);
    mpd_search_add_group_tag(connection, MPD_TAG_ALBUM_ARTIST);
    mpd_search_commit(connection);
    print_pairs("list");

    section("count genre");
    mpd_count_db_songs(connection);
    mpd_search_add_tag_constraint(connection, MPD_OPERATOR_DEFAULT, MPD_TAG_GENRE, "Pop");
    mpd_search_commit(connection);
    print_pairs("count");

    section("queue");
    mpd_run_add(connection, "Various");
    check("add");
    mpd_search_add_db_songs(connection, true);
    mpd_search_add_tag_constraint(connection, MPD_OPERATOR_DEFAULT, MPD_TAG_ALBUM, "First Album");
    mpd_search_commit(connection);
    mpd_response_finish(connection);
    check("findadd");
    printf("add_id: %s\n", mpd_run_add_id_to(connection, "Mp3/Song.mp3", 1) > 0 ? "yes" : "no");
    check("addid");
    mpd_run_move(connection, 0, 2);
    check("move");
    mpd_run_delete(connection, 1);
    check("delete");
    mpd_run_prio_range(connection, 9, 0, 2);
    check("prio");
    mpd_send_list_queue_meta(connection);
    print_songs("playlistinfo");

    section("player");
    mpd_run_play_pos(connection, 1);
    check("play");
    mpd_run_pause(connection, true);
    check("pause");
    wait_until_opened();
    mpd_run_seek_current(connection, 7, false);
    check("seekcur");
    print_status();
    struct mpd_song *current = mpd_run_current_song(connection);
    check("currentsong");
    if (current != NULL) {
        print_song(current);
        mpd_song_free(current);
    }

    section("mixer");
    mpd_run_set_volume(connection, 35);
    check("setvol");
    printf("volume: %d\n", mpd_run_get_volume(connection));
    check("getvol");

    section("options");
    mpd_run_repeat(connection, true);
    mpd_run_single_state(connection, MPD_SINGLE_ONESHOT);
    mpd_run_consume(connection, true);
    check("options");
    print_status();
    mpd_run_repeat(connection, false);
    mpd_run_single(connection, false);
    mpd_run_consume(connection, false);
    mpd_run_replay_gain_mode(connection, MPD_REPLAY_TRACK);
    printf("replay_gain: %s\n", mpd_lookup_replay_gain_mode(mpd_run_replay_gain_status(connection)));
    mpd_run_replay_gain_mode(connection, MPD_REPLAY_OFF);
    check("replay_gain");

    section("outputs");
    mpd_run_disable_output(connection, 0);
    check("disableoutput");
    mpd_send_outputs(connection);
    struct mpd_output *output;
    while ((output = mpd_recv_output(connection)) != NULL) {
        printf("output: %u %s %s enabled=%d\n", mpd_output_get_id(output), mpd_output_get_name(output),
               mpd_output_get_plugin(output), mpd_output_get_enabled(output));
        mpd_output_free(output);
    }
    mpd_response_finish(connection);
    check("outputs");
    mpd_run_enable_output(connection, 0);
    check("enableoutput");

    section("stored playlists");
    mpd_run_save(connection, "walk");
    check("save");
    mpd_run_playlist_add(connection, "walk", "Ogg/Song.ogg");
    check("playlistadd");
    mpd_send_list_playlists(connection);
    struct mpd_playlist *playlist;
    while ((playlist = mpd_recv_playlist(connection)) != NULL) {
        printf("playlist: %s\n", mpd_playlist_get_path(playlist));
        mpd_playlist_free(playlist);
    }
    mpd_response_finish(connection);
    check("listplaylists");
    mpd_send_list_playlist_meta(connection, "walk");
    print_songs("listplaylistinfo");
    mpd_run_rm(connection, "walk");
    check("rm");

    section("stickers");
    mpd_run_sticker_set(connection, "song", song, "rating", "4");
    check("sticker set");
    mpd_send_sticker_list(connection, "song", song);
    print_pairs("sticker list");
    mpd_run_sticker_delete(connection, "song", song, "rating");
    check("sticker delete");

    section("messages");
    mpd_run_subscribe(connection, "walk");
    check("subscribe");
    mpd_run_send_message(other, "walk", "hello");
    mpd_send_read_messages(connection);
    struct mpd_message *message;
    while ((message = mpd_recv_message(connection)) != NULL) {
        printf("message: %s %s\n", mpd_message_get_channel(message), mpd_message_get_text(message));
        mpd_message_free(message);
    }
    mpd_response_finish(connection);
    check("readmessages");

    section("pictures");
    static unsigned char picture[1 << 20];
    int length = mpd_run_albumart(connection, song, 0, picture, sizeof picture);
    printf("albumart: %d\n", length);
    check("albumart");
    length = mpd_run_readpicture(connection, song, 0, picture, sizeof picture);
    printf("readpicture: %d\n", length);
    check("readpicture");

    section("idle");
    /* What this connection changed itself is reported at once; then the other's change. */
    enum mpd_idle own = mpd_run_idle(connection);
    for (unsigned bit = 1; bit != 0 && bit <= MPD_IDLE_MESSAGE * 2; bit <<= 1)
        if ((own & bit) != 0) printf("own: %s\n", mpd_idle_name((enum mpd_idle)bit));
    print_idle(other);

    section("errors");
    mpd_run_play_pos(connection, 99);
    check("play 99");
    mpd_run_add(connection, "Nowhere/nothing.flac");
    check("add missing");
    mpd_send_list_playlist(connection, "absent");
    print_pairs("listplaylist absent");

    section("end");
    mpd_run_stop(connection);
    mpd_run_clear(connection);
    mpd_run_set_volume(connection, 100);
    check("stop");
    print_status();
    mpd_connection_free(other);
    mpd_connection_free(connection);
    return 0;
}
