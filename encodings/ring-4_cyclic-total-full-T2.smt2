; tesearch encoding: ring-4:cyclic total T=2 items=3 pb+count+exact+mirror
; sections: one placement per item=3, letters in columns=4, letter counts=3, symmetry breaking=0
; candidate words complete: True
; z3 pseudo-Boolean syntax ((_ pbeq ..), (_ at-most ..), (_ pble ..)); for other solvers
; tesearch.proofcheck.to_standard_smtlib2 rewrites it to plain QF_LIA sums
(declare-fun x_0_0_1 () Bool)
(declare-fun x_0_0_0 () Bool)
(declare-fun x_1_0_1 () Bool)
(declare-fun x_1_0_0 () Bool)
(declare-fun x_2_1_0 () Bool)
(declare-fun x_2_0_0 () Bool)
(assert ((_ pbeq 1 1 1) x_0_0_0 x_0_0_1))
(assert ((_ pbeq 1 1 1) x_1_0_0 x_1_0_1))
(assert ((_ pbeq 1 1 1) x_2_0_0 x_2_1_0))
(assert ((_ pbeq 1 1 1) x_0_0_0 x_2_0_0))
(assert ((_ pbeq 1 1 1) x_1_0_0 x_2_1_0))
(assert ((_ pbeq 1 1 1) x_0_0_1 x_2_0_0))
(assert ((_ pbeq 1 1 1) x_1_0_1 x_2_1_0))
(assert ((_ pble 1 2) x_2_0_0))
(assert ((_ pble 1 2) x_2_1_0))
(assert ((_ pble 4 1 1 1 1 2 2) x_0_0_0 x_0_0_1 x_1_0_0 x_1_0_1 x_2_0_0 x_2_1_0))
(check-sat)
(exit)
