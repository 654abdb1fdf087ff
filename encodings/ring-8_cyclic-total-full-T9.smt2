; tesearch encoding: ring-8:cyclic total T=9 items=7 pb+count+exact+mirror
; sections: one placement per item=7, letters in columns=18, letter counts=3, symmetry breaking=6
; candidate words complete: True
; z3 pseudo-Boolean syntax ((_ pbeq ..), (_ at-most ..), (_ pble ..)); for other solvers
; tesearch.proofcheck.to_standard_smtlib2 rewrites it to plain QF_LIA sums
(declare-fun x_0_0_8 () Bool)
(declare-fun x_0_0_7 () Bool)
(declare-fun x_0_0_6 () Bool)
(declare-fun x_0_0_5 () Bool)
(declare-fun x_0_0_4 () Bool)
(declare-fun x_0_0_3 () Bool)
(declare-fun x_0_0_2 () Bool)
(declare-fun x_0_0_1 () Bool)
(declare-fun x_0_0_0 () Bool)
(declare-fun x_1_0_8 () Bool)
(declare-fun x_1_0_7 () Bool)
(declare-fun x_1_0_6 () Bool)
(declare-fun x_1_0_5 () Bool)
(declare-fun x_1_0_4 () Bool)
(declare-fun x_1_0_3 () Bool)
(declare-fun x_1_0_2 () Bool)
(declare-fun x_1_0_1 () Bool)
(declare-fun x_1_0_0 () Bool)
(declare-fun x_2_0_7 () Bool)
(declare-fun x_2_0_6 () Bool)
(declare-fun x_2_0_5 () Bool)
(declare-fun x_2_0_4 () Bool)
(declare-fun x_2_0_3 () Bool)
(declare-fun x_2_0_2 () Bool)
(declare-fun x_2_0_1 () Bool)
(declare-fun x_2_0_0 () Bool)
(declare-fun x_3_0_7 () Bool)
(declare-fun x_3_0_6 () Bool)
(declare-fun x_3_0_5 () Bool)
(declare-fun x_3_0_4 () Bool)
(declare-fun x_3_0_3 () Bool)
(declare-fun x_3_0_2 () Bool)
(declare-fun x_3_0_1 () Bool)
(declare-fun x_3_0_0 () Bool)
(declare-fun x_4_0_6 () Bool)
(declare-fun x_4_0_5 () Bool)
(declare-fun x_4_0_4 () Bool)
(declare-fun x_4_0_3 () Bool)
(declare-fun x_4_0_2 () Bool)
(declare-fun x_4_0_1 () Bool)
(declare-fun x_4_0_0 () Bool)
(declare-fun x_5_0_6 () Bool)
(declare-fun x_5_0_5 () Bool)
(declare-fun x_5_0_4 () Bool)
(declare-fun x_5_0_3 () Bool)
(declare-fun x_5_0_2 () Bool)
(declare-fun x_5_0_1 () Bool)
(declare-fun x_5_0_0 () Bool)
(declare-fun x_6_1_5 () Bool)
(declare-fun x_6_1_4 () Bool)
(declare-fun x_6_1_3 () Bool)
(declare-fun x_6_1_2 () Bool)
(declare-fun x_6_1_1 () Bool)
(declare-fun x_6_1_0 () Bool)
(declare-fun x_6_0_5 () Bool)
(declare-fun x_6_0_4 () Bool)
(declare-fun x_6_0_3 () Bool)
(declare-fun x_6_0_2 () Bool)
(declare-fun x_6_0_1 () Bool)
(declare-fun x_6_0_0 () Bool)
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1)
  x_0_0_0
  x_0_0_1
  x_0_0_2
  x_0_0_3
  x_0_0_4
  x_0_0_5
  x_0_0_6
  x_0_0_7
  x_0_0_8))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1)
  x_1_0_0
  x_1_0_1
  x_1_0_2
  x_1_0_3
  x_1_0_4
  x_1_0_5
  x_1_0_6
  x_1_0_7
  x_1_0_8))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1)
  x_2_0_0
  x_2_0_1
  x_2_0_2
  x_2_0_3
  x_2_0_4
  x_2_0_5
  x_2_0_6
  x_2_0_7))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1)
  x_3_0_0
  x_3_0_1
  x_3_0_2
  x_3_0_3
  x_3_0_4
  x_3_0_5
  x_3_0_6
  x_3_0_7))
(assert ((_ pbeq 1 1 1 1 1 1 1 1)
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_4_0_6))
(assert ((_ pbeq 1 1 1 1 1 1 1 1)
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_5_0_6))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_6_1_0
  x_6_1_1
  x_6_1_2
  x_6_1_3
  x_6_1_4
  x_6_1_5))
(assert ((_ at-most 1) x_0_0_0 x_2_0_0 x_4_0_0 x_6_0_0))
(assert ((_ at-most 1) x_1_0_0 x_3_0_0 x_5_0_0 x_6_1_0))
(assert ((_ at-most 1) x_0_0_1 x_2_0_0 x_2_0_1 x_4_0_0 x_4_0_1 x_6_0_0 x_6_0_1))
(assert ((_ at-most 1) x_1_0_1 x_3_0_0 x_3_0_1 x_5_0_0 x_5_0_1 x_6_1_0 x_6_1_1))
(assert ((_ at-most 1)
  x_0_0_2
  x_2_0_1
  x_2_0_2
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_6_0_0
  x_6_0_1
  x_6_0_2))
(assert ((_ at-most 1)
  x_1_0_2
  x_3_0_1
  x_3_0_2
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_6_1_0
  x_6_1_1
  x_6_1_2))
(assert ((_ at-most 1)
  x_0_0_3
  x_2_0_2
  x_2_0_3
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3))
(assert ((_ at-most 1)
  x_1_0_3
  x_3_0_2
  x_3_0_3
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_6_1_0
  x_6_1_1
  x_6_1_2
  x_6_1_3))
(assert ((_ at-most 1)
  x_0_0_4
  x_2_0_3
  x_2_0_4
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4))
(assert ((_ at-most 1)
  x_1_0_4
  x_3_0_3
  x_3_0_4
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_6_1_1
  x_6_1_2
  x_6_1_3
  x_6_1_4))
(assert ((_ at-most 1)
  x_0_0_5
  x_2_0_4
  x_2_0_5
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5))
(assert ((_ at-most 1)
  x_1_0_5
  x_3_0_4
  x_3_0_5
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_6_1_2
  x_6_1_3
  x_6_1_4
  x_6_1_5))
(assert ((_ at-most 1)
  x_0_0_6
  x_2_0_5
  x_2_0_6
  x_4_0_4
  x_4_0_5
  x_4_0_6
  x_6_0_3
  x_6_0_4
  x_6_0_5))
(assert ((_ at-most 1)
  x_1_0_6
  x_3_0_5
  x_3_0_6
  x_5_0_4
  x_5_0_5
  x_5_0_6
  x_6_1_3
  x_6_1_4
  x_6_1_5))
(assert ((_ at-most 1) x_0_0_7 x_2_0_6 x_2_0_7 x_4_0_5 x_4_0_6 x_6_0_4 x_6_0_5))
(assert ((_ at-most 1) x_1_0_7 x_3_0_6 x_3_0_7 x_5_0_5 x_5_0_6 x_6_1_4 x_6_1_5))
(assert ((_ at-most 1) x_0_0_8 x_2_0_7 x_4_0_6 x_6_0_5))
(assert ((_ at-most 1) x_1_0_8 x_3_0_7 x_5_0_6 x_6_1_5))
(assert ((_ pble 3 4 4 4 4 4 4) x_6_0_0 x_6_0_1 x_6_0_2 x_6_0_3 x_6_0_4 x_6_0_5))
(assert ((_ pble 3 4 4 4 4 4 4) x_6_1_0 x_6_1_1 x_6_1_2 x_6_1_3 x_6_1_4 x_6_1_5))
(assert ((_ pble
    18
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    1
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    2
    3
    3
    3
    3
    3
    3
    3
    3
    3
    3
    3
    3
    3
    3
    4
    4
    4
    4
    4
    4
    4
    4
    4
    4
    4
    4)
  x_0_0_0
  x_0_0_1
  x_0_0_2
  x_0_0_3
  x_0_0_4
  x_0_0_5
  x_0_0_6
  x_0_0_7
  x_0_0_8
  x_1_0_0
  x_1_0_1
  x_1_0_2
  x_1_0_3
  x_1_0_4
  x_1_0_5
  x_1_0_6
  x_1_0_7
  x_1_0_8
  x_2_0_0
  x_2_0_1
  x_2_0_2
  x_2_0_3
  x_2_0_4
  x_2_0_5
  x_2_0_6
  x_2_0_7
  x_3_0_0
  x_3_0_1
  x_3_0_2
  x_3_0_3
  x_3_0_4
  x_3_0_5
  x_3_0_6
  x_3_0_7
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_4_0_6
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_5_0_6
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_6_1_0
  x_6_1_1
  x_6_1_2
  x_6_1_3
  x_6_1_4
  x_6_1_5))
(assert (not x_6_0_3))
(assert (not x_6_0_4))
(assert (not x_6_0_5))
(assert (not x_6_1_3))
(assert (not x_6_1_4))
(assert (not x_6_1_5))
(check-sat)
(exit)
