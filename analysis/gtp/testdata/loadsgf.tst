# loadsgf replays the main line up to the position before move_number and answers the colour to play
# (as GNU Go does); size and komi come from the file; the moves replayed can be undone.
1 boardsize 19
2 loadsgf testdata/game9.sgf 5
#? [black]
3 list_stones white
#? [E3 A1]
4 play black B1
5 captures black
#? [1]
6 undo
7 list_stones white
#? [E3 A1]
8 loadsgf testdata/game9.sgf
#? [white]
9 get_komi
#? [5.5]
10 captures black
#? [1]
11 list_stones black
#? [E5 C3 A2 B1]
12 undo
13 undo
14 undo
15 list_stones white
#? [E3 A1]
16 loadsgf testdata/game9.sgf 1
#? [black]
17 list_stones black
#? []
18 showboard
#> =18
#>     A B C D E F G H J
#>  9  . . . . . . . . .  9     Black (X) has captured 0 stones
#>  8  . . . . . . . . .  8     White (O) has captured 0 stones
#>  7  . . + . . . + . .  7     black to play, komi 5.5
#>  6  . . . . . . . . .  6
#>  5  . . . . + . . . .  5
#>  4  . . . . . . . . .  4
#>  3  . . + . . . + . .  3
#>  2  . . . . . . . . .  2
#>  1  . . . . . . . . .  1
#>     A B C D E F G H J
19 undo
#> ?19 cannot undo
# Setup stones in a later node (AB[gg] with W[cc]): the game goes on from the position they make, and
# undo goes back to it, not before.
20 loadsgf testdata/setup9.sgf
#? [white]
21 list_stones black
#? [D6 E5 G3]
22 list_stones white
#? [C7]
23 undo
24 undo
25 list_stones black
#? [E5 G3]
26 undo
#> ?26 cannot undo
27 get_komi
#? [6.5]
