package tournament

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestLadder: challenges won, lost, drawn and expired, the reach, one
// challenge at a time, a late answer, a player joining and one leaving.
func TestLadder(t *testing.T) {
	tr := field(t, Ladder, 2, 5, Options{Reach: 2, Days: 7})
	if due, err := tr.Pair(); err != nil || len(due) != 0 {
		t.Fatalf("Pair: %v, %v", due, err)
	}
	order := func(want string) {
		t.Helper()
		if got := fmt.Sprint(tr.Ladder); got != want {
			t.Fatalf("ladder %s, want %s", got, want)
		}
	}
	order("[p1 p2 p3 p4 p5]")
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if _, err := tr.Challenge("p4", "p1", day); !errors.Is(err, ErrChallenge) {
		t.Errorf("three places up with a reach of two: %v", err)
	}
	if _, err := tr.Challenge("p2", "p4", day); !errors.Is(err, ErrChallenge) {
		t.Errorf("a challenge downwards: %v", err)
	}
	c, err := tr.Challenge("p4", "p2", day)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Challenge("p3", "p2", day); !errors.Is(err, ErrChallenge) {
		t.Errorf("p2 challenged twice at once: %v", err)
	}
	g, err := tr.Accept(c.Number, day.Add(48*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(g.Players) != "[p4 p2]" || g.Tag() != "1.1" {
		t.Fatalf("game %+v", g)
	}
	// Won: p4 takes p2's place, p2 and p3 move down one.
	record(t, tr, g.Round, g.Board, ResultOf(1, 0))
	order("[p1 p4 p2 p3 p5]")
	if tr.Challenges[0].State != ChallengeDecided || tr.Challenges[0].Winner != "p4" {
		t.Errorf("challenge %+v", tr.Challenges[0])
	}
	// Lost, and drawn: nothing moves.
	c, _ = tr.Challenge("p3", "p2", day)
	g, _ = tr.Accept(c.Number, day)
	record(t, tr, g.Round, g.Board, ResultOf(0, 1))
	order("[p1 p4 p2 p3 p5]")
	c, _ = tr.Challenge("p2", "p1", day)
	g, _ = tr.Accept(c.Number, day)
	record(t, tr, g.Round, g.Board, ResultOf(1, 1))
	order("[p1 p4 p2 p3 p5]")
	// Not answered in seven days: lost by the defender.
	c, err = tr.Challenge("p5", "p2", day)
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Expire(day.Add(7*24*time.Hour - time.Second)); len(got) != 0 {
		t.Fatalf("expired early: %+v", got)
	}
	if _, err := tr.Accept(c.Number, day.Add(7*24*time.Hour)); !errors.Is(err, ErrChallenge) {
		t.Errorf("accepted late: %v", err)
	}
	got := tr.Expire(day.Add(7 * 24 * time.Hour))
	if len(got) != 1 || got[0].State != ChallengeExpired || got[0].Winner != "p5" {
		t.Fatalf("expired %+v", got)
	}
	order("[p1 p4 p5 p2 p3]")
	if again := tr.Expire(day.Add(30 * 24 * time.Hour)); len(again) != 0 {
		t.Errorf("expired twice: %+v", again)
	}
	// A newcomer joins at the bottom; a player who leaves is taken off,
	// their open challenge cancelled.
	if err := tr.Join(Player{ID: "p6", Rating: 3000}); err != nil {
		t.Fatal(err)
	}
	order("[p1 p4 p5 p2 p3 p6]")
	c, _ = tr.Challenge("p5", "p1", day)
	if _, err := tr.Withdraw("p1"); err != nil {
		t.Fatal(err)
	}
	order("[p4 p5 p2 p3 p6]")
	if tr.Challenges[c.Number-1].State != ChallengeCancelled {
		t.Errorf("challenge %+v", tr.Challenges[c.Number-1])
	}
	rows := tr.Standings()[0].Rows
	if rows[0].Player != "p4" || rows[0].Points != Unit || rows[5].Player != "p1" || !rows[5].Withdrawn {
		t.Errorf("standings %+v", rows)
	}
	if tr.Done() {
		t.Error("a ladder is never done")
	}
}

// TestLadderWithdrawInGame: a player who leaves during a challenge's game
// loses it.
func TestLadderWithdrawInGame(t *testing.T) {
	tr := field(t, Ladder, 2, 3, Options{})
	tr.Pair()
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	c, _ := tr.Challenge("p3", "p1", day)
	tr.Accept(c.Number, day)
	stop, err := tr.Withdraw("p3")
	if err != nil {
		t.Fatal(err)
	}
	if len(stop) != 1 || stop[0].Result.String() != "0-1 forfeit" {
		t.Fatalf("stopped %+v", stop)
	}
	if ch := tr.Challenges[0]; ch.State != ChallengeDecided || ch.Winner != "p1" {
		t.Errorf("challenge %+v", ch)
	}
	if fmt.Sprint(tr.Ladder) != "[p1 p2]" {
		t.Errorf("ladder %v", tr.Ladder)
	}
}
