// Package fbt is Xiao's Factorization Bradley-Terry move predictor (Xiao 2016, ch. 3): a move is the
// group of its features, mm's tactical levels, its 3x3 shape and (F_large) its largest circular shape, and
// its strength is Σ w_f plus the pairwise interactions ⟨v_f, v_g⟩ of a factorization machine (eq. 3.1).
// The probability of a move is its exp-strength over all legal moves' (eqs. 3.2–3.3). Models are trained
// by stochastic gradient descent on the full gradient (eqs. 3.8–3.9) or the sampled one, FBT_Sm (eq. 3.13).
package fbt
