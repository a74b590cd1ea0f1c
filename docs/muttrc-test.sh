#!/usr/bin/env bash
# Checks docs/muttrc.example against a real `icepost serve`, with mutt
# itself, the way the README's "How to play" uses it: mutt sends a
# challenge to the bot, shows the board mail in its index, replies to it
# with a move, and shows the bot's answer; the play page the mail links to
# answers. Run from the clone's root after ./run (it takes ./icepost, or
# $ICEPOST); it needs mutt, tmux and curl (apt-get install mutt tmux
# curl), and ports 1143, 1025 and 8080 free, the ones the muttrc names.
# Not part of CI: mutt is not installed there. About 30 s.
set -euo pipefail
cd "$(dirname "$0")/.."
icepost=${ICEPOST:-./icepost}
muttrc=$PWD/docs/muttrc.example
for c in mutt tmux curl; do
  command -v $c >/dev/null || { echo "muttrc-test: needs $c (apt-get install $c)" >&2; exit 2; }
done
[ -x "$icepost" ] || { echo "muttrc-test: no $icepost: run ./run first" >&2; exit 2; }

tmp=$(mktemp -d)
sock=icepost-muttrc-test-$$
serve=
cleanup() {
  tmux -L "$sock" kill-server 2>/dev/null || true
  [ -n "$serve" ] && kill "$serve" 2>/dev/null && wait "$serve" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  echo "--- serve's log:" >&2; cat "$tmp/serve.err" >&2
  exit 1
}
# mutt is given a HOME of its own, so that nothing of yours is read or
# written; the muttrc is the only configuration.
export HOME=$tmp/home
mkdir -p "$HOME"
inbox() { curl -s --user ada:ada imap://127.0.0.1:1143/INBOX -X 'SEARCH ALL' | tr -d '\r' | sed 's/^\* SEARCH *//' | wc -w; }
wait_inbox() { # wait_inbox N: until ada has N mails
  for _ in $(seq 60); do [ "$(inbox)" -ge "$1" ] && return 0; sleep 1; done
  fail "ada's inbox did not reach $1 mails in 60 s"
}
screen() { tmux -L "$sock" capture-pane -p -t mutt; }
wait_screen() { # wait_screen TEXT: until mutt's screen shows TEXT
  for _ in $(seq 30); do screen | grep -qF -- "$1" && return 0; sleep 1; done
  screen >&2
  fail "mutt's screen never showed: $1"
}

echo "== serve (embedded mail system, web site on 127.0.0.1:8080)"
"$icepost" serve -db "$tmp/icepost.db" -web 127.0.0.1:8080 >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve=$!
for _ in $(seq 50); do grep -q "The web site" "$tmp/serve.out" 2>/dev/null && break; sleep 0.2; done
grep -q "IMAP  127.0.0.1:1143 " "$tmp/serve.out" && grep -q "SMTP  127.0.0.1:1025 " "$tmp/serve.out" ||
  fail "serve does not listen where the muttrc says (ports taken?): $(cat "$tmp/serve.out")"

echo "== mutt sends the challenge (batch mode, SMTP as ada)"
echo "challenge icesickle bot" | mutt -F "$muttrc" -s "new game" games@icepost.localhost
wait_inbox 1

echo "== mutt reads the board mail over IMAP and replies with a move"
# The "editor" writes the move on the reply's first line, as you would.
printf '#!/bin/sh\n{ echo M@c3; cat "$1"; } >"$1.new" && mv "$1.new" "$1"\n' >"$tmp/editor"
chmod +x "$tmp/editor"
tmux -L "$sock" new-session -d -s mutt -x 160 -y 45 "mutt -F '$muttrc' -e 'set editor=$tmp/editor'"
wait_screen "IceSickle #1: ada vs icepost bot level 2"
tmux -L "$sock" send-keys -t mutt r
wait_screen "To: games+"
tmux -L "$sock" send-keys -t mutt y
wait_inbox 2

echo "== mutt shows the bot's answer"
# The bot's board comes as the second mail: the index checks every 5 s.
wait_screen "Msgs:2"
tmux -L "$sock" send-keys -t mutt End Enter
wait_screen "ada played M@c3 (move 1)."
wait_screen "icepost bot level 2 played"
wait_screen "YOUR MOVE, ada."
link=$(screen | grep -o 'http://127\.0\.0\.1:8080/play/[A-Za-z0-9-]*' | head -1)
[ -n "$link" ] || fail "no play link in the board mail"
tmux -L "$sock" send-keys -t mutt i q

echo "== the play page: $link"
# It answers with the game's page and the form that plays a move there.
curl -sf "$link" | grep -qF "<form method=\"post\" action=\"${link#http://127.0.0.1:8080}" ||
  fail "the play page did not answer with its move form"
echo "ok: mutt sent a challenge, replied with a move and read the bot's answer with docs/muttrc.example"
