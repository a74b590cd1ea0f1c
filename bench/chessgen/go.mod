module icepost/bench/chessgen

go 1.26.0
