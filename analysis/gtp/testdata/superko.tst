# Positional superko on 3x3: after these moves black A3 is no simple-ko retake, but it would recreate
# the position after move 6. GNU Go's play accepts it (it checks simple ko only); Aji refuses it, and
# genmove never chooses it.
1 boardsize 3
2 play black A3
3 play white B2
4 play black B1
5 play white B3
6 play black C2
7 play white A1
8 play black A2
9 play white A1
10 showboard
#> =10
#>     A B C
#>  3  . O .  3     Black (X) has captured 1 stones
#>  2  . O X  2     White (O) has captured 2 stones
#>  1  O X .  1     black to play, komi 7
#>     A B C
11 is_legal black A3
#? [0]
12 play black A3
#> ?12 illegal move
13 genmove black
#? [!A3]
