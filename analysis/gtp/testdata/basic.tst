# Administrative commands, moves, captures, undo and the board drawing on 7x7.
1 protocol_version
#? [2]
2 name
#? [Aji test]
3 version
#? [test]
4 known_command play
#? [true]
5 known_command no_such_command
#? [false]
6 known_command
#> ?6 syntax error
7 boardsize 7
8 clear_board
9 komi 6.5
10 play black D4
11 play white c5            # vertices and colours in any case
12 play b pass
13 play W E3
14 showboard
#> =14
#>     A B C D E F G
#>  7  . . . . . . .  7     Black (X) has captured 0 stones
#>  6  . . . . . . .  6     White (O) has captured 0 stones
#>  5  . . O . + . .  5     black to play, komi 6.5
#>  4  . . . X . . .  4
#>  3  . . + . O . .  3
#>  2  . . . . . . .  2
#>  1  . . . . . . .  1
#>     A B C D E F G
# Black captures a white stone in the corner.
15 play white A1
16 play black A2
17 play black B1
18 captures black
#? [1]
19 list_stones white
#? [C5 E3]
20 list_stones black
#? [D4 A2 B1]
21 showboard
#> =21
#>     A B C D E F G
#>  7  . . . . . . .  7     Black (X) has captured 1 stones
#>  6  . . . . . . .  6     White (O) has captured 0 stones
#>  5  . . O . + . .  5     white to play, komi 6.5
#>  4  . . . X . . .  4
#>  3  . . + . O . .  3
#>  2  X . . . . . .  2
#>  1  . X . . . . .  1
#>     A B C D E F G
# Undo puts the captured stone back, move by move.
22 undo
23 captures black
#? [0]
24 list_stones white
#? [C5 E3 A1]
25 undo
26 undo
27 list_stones white
#? [C5 E3]
28 undo
29 undo
30 undo
31 undo
32 undo
#> ?32 cannot undo
33 list_stones black
#? []
# Komi survives clear_board; genmove plays the player's move (here the first legal point).
34 clear_board
35 genmove black
#? [A7]
36 reg_genmove white
#? [B7]
37 list_stones white
#? []
38 genmove w
#? [B7]
