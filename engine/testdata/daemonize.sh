#!/bin/sh
# An engine that leaves a daemon behind, the way a double-forking server
# does: a child process calls setsid() (a session and process group of
# its own), forks the daemon (here a sleep, which keeps this script's
# standard output open) and exits, so that the daemon's parent is gone.
# The daemon's pid is written to $DAEMON_PIDFILE.
#
#   daemonize.sh --version   prints a version and exits, leaving the daemon
#   daemonize.sh serve       leaves the daemon and keeps running (never ready)
#   daemonize.sh             leaves the daemon and exits 0
setsid sh -c 'sleep 1000 & echo $! > "$DAEMON_PIDFILE"' &
wait
while [ ! -s "$DAEMON_PIDFILE" ]; do sleep 0.01; done
case "$1" in
--version) echo "daemonize 1.0" ;;
serve) echo "loading"; exec sleep 1000 ;;
*) echo "generated text" ;;
esac
