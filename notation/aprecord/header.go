package aprecord

import (
	"strconv"
	"time"

	"icepost/notation"
)

// The tags an imported game keeps of its record's header, beside the
// ones every record has (Event, Site, Date, Round, PlayerN).
const (
	// TagGameID is the game's id on the site it was played on
	// (header.site.gameid), after lichess's tag of the same name.
	TagGameID = "GameId"
	// TagDateStart and TagDateEnd are header.date-start and date-end as
	// the record gives them (RFC 3339, UTC); Date is date-start's day.
	TagDateStart = "DateStart"
	TagDateEnd   = "DateEnd"
	// TagUnrated is "true" for a game the site flagged unrated.
	TagUnrated = "Unrated"
	// TagIcepost is the header's own field for icepost's tags that the
	// format has no place for (see Marshal).
	TagIcepost = "icepost-tags"
)

// playerIDTag and playerAITag are the tags of seat k's user id on the
// site (header.players[k-1].userid) and of its is_ai flag.
func playerIDTag(k int) string { return "Player" + strconv.Itoa(k) + "Id" }
func playerAITag(k int) string { return "Player" + strconv.Itoa(k) + "AI" }

// apTimeLayout is how the site writes a time (JavaScript's toISOString).
const apTimeLayout = "2006-01-02T15:04:05.000Z"

// header is what icepost reads of a record's header and writes into one,
// besides the game, its variants and the results: Marshal fills it from
// a record, the import from the JSON, and tags turns it into tags the
// same way for both, so that Marshal knows which tags the import will
// give back and carries the others (TagIcepost).
type header struct {
	event, round       string
	site, gameID       string
	dateStart, dateEnd string // RFC 3339, as written
	unrated            bool
	players            []player
}

type player struct {
	name, userID string
	ai           bool
}

// tags are the tags the header gives, in the order the import sets them.
func (h *header) tags() []notation.Tag {
	var out []notation.Tag
	add := func(name, v string) {
		if v != "" {
			out = append(out, notation.Tag{Name: name, Value: v})
		}
	}
	add("Event", h.event)
	add("Site", h.site)
	if t, err := time.Parse(time.RFC3339, h.dateStart); err == nil {
		add("Date", notation.FormatDate(t.UTC()))
	}
	add("Round", h.round)
	for i, p := range h.players {
		name := p.name
		if name == "" {
			name = "?"
		}
		add("Player"+strconv.Itoa(i+1), name)
	}
	add(TagGameID, h.gameID)
	add(TagDateStart, h.dateStart)
	add(TagDateEnd, h.dateEnd)
	for i, p := range h.players {
		add(playerIDTag(i+1), p.userID)
		if p.ai {
			add(playerAITag(i+1), "true")
		}
	}
	if h.unrated {
		add(TagUnrated, "true")
	}
	return out
}

// gameTag reports whether a tag is one the replay sets (the game, its
// options, the result, the score, how it ended), which TagIcepost never
// holds.
func gameTag(name string) bool {
	switch name {
	case "Game", "Result", "Score", "Termination", "Setup", "Target", "Board":
		return true
	}
	return false
}

// seatOf reads PlayerN.
func seatOf(name string) (int, bool) {
	if len(name) < 7 || name[:6] != "Player" || name[6] == '0' {
		return 0, false
	}
	k, err := strconv.Atoi(name[6:])
	return k, err == nil && k >= 1
}
