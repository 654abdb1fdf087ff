; tesearch encoding: ring-6:cyclic total T=5 items=5 pb+count+exact+mirror
; sections: one placement per item=5, letters in columns=10, letter counts=3, symmetry breaking=2
; candidate words complete: True
; z3 pseudo-Boolean syntax ((_ pbeq ..), (_ at-most ..), (_ pble ..)); for other solvers
; tesearch.proofcheck.to_standard_smtlib2 rewrites it to plain QF_LIA sums
(declare-fun x_0_0_4 () Bool)
(declare-fun x_0_0_3 () Bool)
(declare-fun x_0_0_2 () Bool)
(declare-fun x_0_0_1 () Bool)
(declare-fun x_0_0_0 () Bool)
(declare-fun x_1_0_4 () Bool)
(declare-fun x_1_0_3 () Bool)
(declare-fun x_1_0_2 () Bool)
(declare-fun x_1_0_1 () Bool)
(declare-fun x_1_0_0 () Bool)
(declare-fun x_2_0_3 () Bool)
(declare-fun x_2_0_2 () Bool)
(declare-fun x_2_0_1 () Bool)
(declare-fun x_2_0_0 () Bool)
(declare-fun x_3_0_3 () Bool)
(declare-fun x_3_0_2 () Bool)
(declare-fun x_3_0_1 () Bool)
(declare-fun x_3_0_0 () Bool)
(declare-fun x_4_1_2 () Bool)
(declare-fun x_4_1_1 () Bool)
(declare-fun x_4_1_0 () Bool)
(declare-fun x_4_0_2 () Bool)
(declare-fun x_4_0_1 () Bool)
(declare-fun x_4_0_0 () Bool)
(assert ((_ pbeq 1 1 1 1 1 1) x_0_0_0 x_0_0_1 x_0_0_2 x_0_0_3 x_0_0_4))
(assert ((_ pbeq 1 1 1 1 1 1) x_1_0_0 x_1_0_1 x_1_0_2 x_1_0_3 x_1_0_4))
(assert ((_ pbeq 1 1 1 1 1) x_2_0_0 x_2_0_1 x_2_0_2 x_2_0_3))
(assert ((_ pbeq 1 1 1 1 1) x_3_0_0 x_3_0_1 x_3_0_2 x_3_0_3))
(assert ((_ pbeq 1 1 1 1 1 1 1) x_4_0_0 x_4_0_1 x_4_0_2 x_4_1_0 x_4_1_1 x_4_1_2))
(assert ((_ at-most 1) x_0_0_0 x_2_0_0 x_4_0_0))
(assert ((_ at-most 1) x_1_0_0 x_3_0_0 x_4_1_0))
(assert ((_ at-most 1) x_0_0_1 x_2_0_0 x_2_0_1 x_4_0_0 x_4_0_1))
(assert ((_ at-most 1) x_1_0_1 x_3_0_0 x_3_0_1 x_4_1_0 x_4_1_1))
(assert ((_ at-most 1) x_0_0_2 x_2_0_1 x_2_0_2 x_4_0_0 x_4_0_1 x_4_0_2))
(assert ((_ at-most 1) x_1_0_2 x_3_0_1 x_3_0_2 x_4_1_0 x_4_1_1 x_4_1_2))
(assert ((_ at-most 1) x_0_0_3 x_2_0_2 x_2_0_3 x_4_0_1 x_4_0_2))
(assert ((_ at-most 1) x_1_0_3 x_3_0_2 x_3_0_3 x_4_1_1 x_4_1_2))
(assert ((_ at-most 1) x_0_0_4 x_2_0_3 x_4_0_2))
(assert ((_ at-most 1) x_1_0_4 x_3_0_3 x_4_1_2))
(assert ((_ pble 2 3 3 3) x_4_0_0 x_4_0_1 x_4_0_2))
(assert ((_ pble 2 3 3 3) x_4_1_0 x_4_1_1 x_4_1_2))
(assert ((_ pble 10 1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 3 3 3 3 3 3)
  x_0_0_0
  x_0_0_1
  x_0_0_2
  x_0_0_3
  x_0_0_4
  x_1_0_0
  x_1_0_1
  x_1_0_2
  x_1_0_3
  x_1_0_4
  x_2_0_0
  x_2_0_1
  x_2_0_2
  x_2_0_3
  x_3_0_0
  x_3_0_1
  x_3_0_2
  x_3_0_3
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_4_1_0
  x_4_1_1
  x_4_1_2))
(assert (not x_4_0_2))
(assert (not x_4_1_2))
(check-sat)
(exit)
