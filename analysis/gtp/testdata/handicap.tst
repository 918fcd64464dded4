# Fixed handicap placement (GTP draft 2, section 4.1.1) and free handicap.
1 boardsize 19
2 fixed_handicap 2
#? [D4 Q16]
3 fixed_handicap 2
#> ?3 board not empty
4 clear_board
5 fixed_handicap 5
#? [D4 Q16 D16 Q4 K10]
6 genmove white                 # White moves first after handicap
#? [A19]
7 clear_board
8 fixed_handicap 8
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16]
9 clear_board
10 fixed_handicap 9
#? [D4 Q16 D16 Q4 D10 Q10 K4 K16 K10]
11 undo                          # handicap stones are no move
#> ?11 cannot undo
12 boardsize 9
13 fixed_handicap 4
#? [C3 G7 C7 G3]
14 boardsize 8
15 fixed_handicap 5
#> ?15 invalid number of stones
16 fixed_handicap 1
#> ?16 invalid number of stones
17 fixed_handicap 4
#? [C3 F6 C6 F3]
18 boardsize 9
19 set_free_handicap E5 c3
20 list_stones black
#? [E5 C3]
21 clear_board
22 set_free_handicap E5
#> ?22 invalid number of stones
23 set_free_handicap E5 E5
#> ?23 syntax error
