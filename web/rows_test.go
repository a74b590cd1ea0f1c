package web

import (
	"html/template"
	"strings"
	"testing"

	"icepost/archive"
)

// oldGameRow is the "games" table's row as the template wrote it before
// writeGameRow (since then with the result before the date, and a game by
// mail's number by mail): the row must stay the same, escaping included.
const oldGameRow = `{{range .}}<tr>
<td><a href="/game/{{.ID}}">{{if .ByMail}}{{.ByMail}}{{else}}{{.ID}}{{end}}</a></td>
<td>{{.Game}}{{if gt .Seats 2}} ({{.Seats}}){{end}}{{if .ByMail}} <span class="bymail">by mail</span>{{end}}</td>
<td>{{range $i, $p := .Names}}{{if $i}} – {{end}}{{if .Winner}}<strong>{{.Name}}</strong>{{else}}{{.Name}}{{end}}{{end}}</td>
<td><a href="/game/{{.ID}}">{{.Result}}</a></td>
<td class="date">{{dash .Date}}</td>
<td class="n">{{.Plies}}</td>
<td>{{dash .Event}}</td>
</tr>{{end}}`

// TestGameRowHTML: writeGameRow writes what the template did, for
// games of 2 to 4 seats, won, drawn and undecided, with values that need
// escaping.
func TestGameRowHTML(t *testing.T) {
	type seatName struct {
		Seat   int
		Name   string
		Winner bool
	}
	type row struct {
		archive.Summary
		Names  []seatName
		ByMail int64
	}
	tmpl := template.Must(template.New("row").Funcs(funcs).Parse(oldGameRow))
	one, two, none := 1, 2, 0
	for _, s := range []archive.Summary{
		{ID: 1, Game: "IceSickle", Seats: 2, Players: []string{"Ada", "Bo"}, Result: "1-0", Winner: &one, Plies: 41, Date: "2024.03.01", Event: "Spring Open"},
		{ID: 1234567, Game: "IceFrogs", Seats: 4, Players: []string{"A", "B", "C", "D"}, Result: "0-1-0-0", Winner: &two, Plies: 7},
		{ID: 2, Game: "Pikemen", Seats: 3, Players: []string{"x", "y", "z"}, Result: "½-½-½", Winner: &none},
		{ID: 3, Game: "IceLady", Seats: 2, Players: []string{`<script>alert("1")</script>`, "O'Brien & Sons +1"}, Result: "*",
			Date: "2020.??.??", Event: "a\x00b <i>c</i> 'd' \"e\" +f"},
		{ID: 4, Game: "IceLady", Seats: 2, Result: "*"},
		{ID: 12, Game: "IceSickle", Seats: 2, Players: []string{"ada", "icepost bot level 2"}, Result: "0-1", Winner: &two, MailGame: "mail game 3"},
		{ID: 13, Game: "IceSickle", Seats: 2, Result: "*", MailGame: "a mail game"}, // not the daemon's: its archive number
	} {
		r := row{Summary: s, ByMail: mailNumber(s)}
		for k, n := range s.Players {
			r.Names = append(r.Names, seatName{Seat: k + 1, Name: n, Winner: s.Winner != nil && *s.Winner == k+1})
		}
		var want strings.Builder
		if err := tmpl.Execute(&want, []row{r}); err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		writeGameRow(&got, s)
		if got.String() != want.String() {
			t.Errorf("game %d:\n got %s\nwant %s", s.ID, got.String(), want.String())
		}
	}
}
