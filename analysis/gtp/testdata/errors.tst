# Failures with the texts of the GTP specification (draft 2, section 6.3).
1 boardsize 0
#> ?1 unacceptable size
2 boardsize 26
#> ?2 unacceptable size
3 boardsize nine
#> ?3 syntax error
4 boardsize
#> ?4 syntax error
5 boardsize 9
6 komi seven
#> ?6 syntax error
7 komi
#> ?7 syntax error
8 komi -3.5                 # negative komi is allowed
# Vertices: K9 is a vertex, but not on 9x9; I5 is none (GTP skips I); so are E0 and E.
9 play black K9
#> ?9 illegal move
10 play black E10
#> ?10 illegal move
11 play black I5
#> ?11 syntax error
12 play black E0
#> ?12 syntax error
13 play black E
#> ?13 syntax error
14 play blue E5
#> ?14 syntax error
15 play black
#> ?15 syntax error
16 play black E5 E6
#> ?16 syntax error
# Occupied point.
17 play black E5
18 play white E5
#> ?18 illegal move
19 play black E5
#> ?19 illegal move
# Suicide: white A1 inside black A2, B1.
20 play black A2
21 play black B1
22 play white A1
#> ?22 illegal move
23 is_legal white A1
#? [0]
24 is_legal black A1           # filling one's own eye is legal
#? [1]
# Simple ko in the top right: black G8 F7 G6, white H8 J7 H6.
25 play black G8
26 play black F7
27 play black G6
28 play white H8
29 play white J7
30 play white H6
31 play white G7
32 play black H7              # takes the ko
33 captures black
#? [1]
34 play white G7              # may not take back at once
#> ?34 illegal move
35 is_legal white G7
#? [0]
36 play white C8              # a threat
37 play black C2              # answered elsewhere
38 play white G7              # now the ko can be taken back
39 play black H7
#> ?39 illegal move
40 captures white
#? [1]
# Other commands' bad arguments.
41 genmove green
#> ?41 syntax error
42 genmove
#> ?42 syntax error
43 final_status_list bogus
#> ?43 syntax error
44 time_settings 10 0
#> ?44 syntax error
45 time_settings -1 0 0
#> ?45 syntax error
46 time_left black 10
#> ?46 syntax error
47 time_left green 10 0
#> ?47 syntax error
48 loadsgf testdata/no-such-file.sgf
#> ?48 cannot load file
49 fixed_handicap 10
#> ?49 invalid number of stones
50 fixed_handicap 2
#> ?50 board not empty
51 no_such_command
#> ?51 unknown command
52 list_stones purple
#> ?52 syntax error
53 aji-heatmap no-such-predictor
#!
56 set_random_seed -1
#> ?56 syntax error
57 set_random_seed 12345
54 undo                        # the failures above changed nothing: undo takes back the last move
55 captures white
#? [0]
