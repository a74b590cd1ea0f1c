package rules

// AbstractPlay is a game that Abstract Play (play.abstractplay.com) also
// plays, and whose games its records (APGameRecord JSON, package
// notation/aprecord) can carry. The game tells the format what it is
// called there, which seat counts and variants the site plays, and how
// its moves are written there; the format knows no game. A game offers it
// in its own folder (rules/pikemen/abstractplay.go); a game without it is
// refused by the format with its name.
type AbstractPlay interface {
	AbstractPlay() APGame
}

// APGame is what the APGameRecord format knows of one game.
type APGame struct {
	// Name is the game's name in a record's header.game.name ("Pikemen").
	Name string
	// UID is the site's id of the game, as its pages' addresses spell it
	// ("pikemen").
	UID string
	// Seats are the seat counts the site plays the game with.
	Seats []int
	// Variants are the site's variants of the game that icepost plays,
	// each with the options it stands for. A record names a variant by
	// its UID or by its Name; a record that names none plays Default's.
	Variants []APVariant
	// ParseMove reads the site's notation of a move in s (its own
	// spelling only) into the legal move it names, or says in words why
	// it is not one (a *MoveError).
	ParseMove func(s State, tok string) (Move, error)
	// FormatMove writes m, a legal move in s, in the site's notation, as
	// the site's engine takes it.
	FormatMove func(s State, m Move) string
}

// APVariant is one of the site's variants of a game.
type APVariant struct {
	UID  string // the site's id of the variant ("15pts"); "" for the default rules
	Name string // its name as records write it ("Longer Game: 15 points")
	// Options are the options it stands for, beside the seat count.
	Options Options
	// Default marks the variant a record that names none plays.
	Default bool
}
