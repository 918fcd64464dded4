# final_score and final_status_list on the end of a GNU Go self-play game (final9.sgf, a copy of
# referee/game011.sgf), where GNU Go's own answers are W+22.0 and the dead stones A2 A7 B1 B2 C2 C3 D1
# D3 F9, no seki. Dead stones are listed one chain a line.
1 loadsgf testdata/final9.sgf
#? [white]
2 final_score
#? [W\+22]
3 final_status_list dead
#> =3 F9
#> A7
#> C3 D3 A2 B2 C2 B1
#> D1
4 final_status_list seki
#? []
5 final_status_list alive
#> =5 B9 C9 D9 B8 C8
#> E9 D8 E8 F8 E7 E6 F6 F5
#> H8
#> D7 D6
#> G7
#> B6
#> H6 H5 G4 H4 J4 G3 J3 G2 J2 J1
#> E5 B4 C4 D4 E4 F4 B3 E3 F3 H3 D2 E2 F2 H2 E1 F1 G1 H1
6 komi 0.5
7 final_score
#? [W\+15.5]
# Black takes the dead white stone F9 off the board, White passes: the count does not change.
8 play black G9
9 play white pass
10 captures black
#? [3]
11 showboard
#> =11
#>     A B C D E F G H J
#>  9  . O O O X . X . .  9     Black (X) has captured 3 stones
#>  8  . O O X X X . X .  8     White (O) has captured 2 stones
#>  7  X . + O X . X . .  7     black to play, komi 0.5
#>  6  . O . O X X . X .  6
#>  5  . . . . O X . X .  5
#>  4  . O O O O O X X X  4
#>  3  . O X X O O X O X  3
#>  2  X X X O O O X O X  2
#>  1  . X . X O O O O X  1
#>     A B C D E F G H J
12 final_score
#? [W\+15.5]
13 final_status_list dead
#> =13 A7
#> C3 D3 A2 B2 C2 B1
#> D1
