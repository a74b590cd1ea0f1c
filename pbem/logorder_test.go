package pbem_test

import (
	"strings"
	"testing"

	"icepost/pbem/replytoken"
	"icepost/rules/icesickle"
)

// TestRolledBackMailIsNotLoggedAsDone: a move mail whose transaction
// cannot commit (its record as processed fails) is logged as rolled
// back, never with the outcome of a move; the move handled afterwards
// is logged once committed.
func TestRolledBackMailIsNotLoggedAsDone(t *testing.T) {
	w := newWorld(t)
	ids := tokenGames(t, w, "bob")
	log := operatorLog(w)
	if _, err := w.srv.DB.Exec(`CREATE TRIGGER test_no_commit BEFORE INSERT ON pbem_processed WHEN NEW.outcome NOT LIKE 'rejected%'
		BEGIN SELECT RAISE(ABORT, 'injected: the commit fails'); END`); err != nil {
		t.Fatal(err)
	}
	s := icesickle.Start()
	move := s.FormatMove(next(s, 1))
	tok := replytoken.Token{Kind: 'm', Game: ids[0], Seat: 1, Ply: 0}.Sign(w.srv.Secret)
	w.deliver(w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", move))
	w.step()
	lines := strings.Split(log.String(), "\n")
	var rolledBack int
	for _, l := range lines {
		if strings.Contains(l, "msg=mail ") {
			t.Errorf("a mail rolled back is logged as handled:\n%s", l)
		}
		if strings.Contains(l, `msg="mail rolled back`) && strings.Contains(l, move) && strings.Contains(l, "injected") {
			rolledBack++
		}
	}
	if rolledBack != 1 {
		t.Errorf("%d lines say the move was rolled back, want 1:\n%s", rolledBack, log.String())
	}
	if g := replay(t, w, ids[0]); g.Ply() != 0 {
		t.Fatalf("the move was played: ply %d", g.Ply())
	}

	if _, err := w.srv.DB.Exec(`DROP TRIGGER test_no_commit`); err != nil {
		t.Fatal(err)
	}
	tok = replytoken.Token{Kind: 'm', Game: ids[0], Seat: 1, Ply: 0}.Sign(w.srv.Secret)
	w.deliver(w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", move))
	w.step()
	if !strings.Contains(log.String(), "msg=mail ") || !strings.Contains(log.String(), `outcome="move `+move+`"`) {
		t.Errorf("the move committed is not logged:\n%s", log.String())
	}
}
