package tabletop

// WorstMove is worstMove, for the tests of package tabletop_test.
var WorstMove = worstMove
