package mailread

import "icepost/rules/games"

// grammar is the games' words as the daemon gives them: the tests read
// mail with the real list of games.
var grammar Grammar = games.Grammar{}
