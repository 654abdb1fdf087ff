; tesearch encoding: ring-12:cyclic total T=18 items=11 pb+count+exact+mirror
; sections: one placement per item=11, letters in columns=36, letter counts=3, symmetry breaking=12
; candidate words complete: True
; z3 pseudo-Boolean syntax ((_ pbeq ..), (_ at-most ..), (_ pble ..)); for other solvers
; tesearch.proofcheck.to_standard_smtlib2 rewrites it to plain QF_LIA sums
(declare-fun x_0_0_17 () Bool)
(declare-fun x_0_0_16 () Bool)
(declare-fun x_0_0_15 () Bool)
(declare-fun x_0_0_14 () Bool)
(declare-fun x_0_0_13 () Bool)
(declare-fun x_0_0_12 () Bool)
(declare-fun x_0_0_11 () Bool)
(declare-fun x_0_0_10 () Bool)
(declare-fun x_0_0_9 () Bool)
(declare-fun x_0_0_8 () Bool)
(declare-fun x_0_0_7 () Bool)
(declare-fun x_0_0_6 () Bool)
(declare-fun x_0_0_5 () Bool)
(declare-fun x_0_0_4 () Bool)
(declare-fun x_0_0_3 () Bool)
(declare-fun x_0_0_2 () Bool)
(declare-fun x_0_0_1 () Bool)
(declare-fun x_0_0_0 () Bool)
(declare-fun x_1_0_17 () Bool)
(declare-fun x_1_0_16 () Bool)
(declare-fun x_1_0_15 () Bool)
(declare-fun x_1_0_14 () Bool)
(declare-fun x_1_0_13 () Bool)
(declare-fun x_1_0_12 () Bool)
(declare-fun x_1_0_11 () Bool)
(declare-fun x_1_0_10 () Bool)
(declare-fun x_1_0_9 () Bool)
(declare-fun x_1_0_8 () Bool)
(declare-fun x_1_0_7 () Bool)
(declare-fun x_1_0_6 () Bool)
(declare-fun x_1_0_5 () Bool)
(declare-fun x_1_0_4 () Bool)
(declare-fun x_1_0_3 () Bool)
(declare-fun x_1_0_2 () Bool)
(declare-fun x_1_0_1 () Bool)
(declare-fun x_1_0_0 () Bool)
(declare-fun x_2_0_16 () Bool)
(declare-fun x_2_0_15 () Bool)
(declare-fun x_2_0_14 () Bool)
(declare-fun x_2_0_13 () Bool)
(declare-fun x_2_0_12 () Bool)
(declare-fun x_2_0_11 () Bool)
(declare-fun x_2_0_10 () Bool)
(declare-fun x_2_0_9 () Bool)
(declare-fun x_2_0_8 () Bool)
(declare-fun x_2_0_7 () Bool)
(declare-fun x_2_0_6 () Bool)
(declare-fun x_2_0_5 () Bool)
(declare-fun x_2_0_4 () Bool)
(declare-fun x_2_0_3 () Bool)
(declare-fun x_2_0_2 () Bool)
(declare-fun x_2_0_1 () Bool)
(declare-fun x_2_0_0 () Bool)
(declare-fun x_3_0_16 () Bool)
(declare-fun x_3_0_15 () Bool)
(declare-fun x_3_0_14 () Bool)
(declare-fun x_3_0_13 () Bool)
(declare-fun x_3_0_12 () Bool)
(declare-fun x_3_0_11 () Bool)
(declare-fun x_3_0_10 () Bool)
(declare-fun x_3_0_9 () Bool)
(declare-fun x_3_0_8 () Bool)
(declare-fun x_3_0_7 () Bool)
(declare-fun x_3_0_6 () Bool)
(declare-fun x_3_0_5 () Bool)
(declare-fun x_3_0_4 () Bool)
(declare-fun x_3_0_3 () Bool)
(declare-fun x_3_0_2 () Bool)
(declare-fun x_3_0_1 () Bool)
(declare-fun x_3_0_0 () Bool)
(declare-fun x_4_0_15 () Bool)
(declare-fun x_4_0_14 () Bool)
(declare-fun x_4_0_13 () Bool)
(declare-fun x_4_0_12 () Bool)
(declare-fun x_4_0_11 () Bool)
(declare-fun x_4_0_10 () Bool)
(declare-fun x_4_0_9 () Bool)
(declare-fun x_4_0_8 () Bool)
(declare-fun x_4_0_7 () Bool)
(declare-fun x_4_0_6 () Bool)
(declare-fun x_4_0_5 () Bool)
(declare-fun x_4_0_4 () Bool)
(declare-fun x_4_0_3 () Bool)
(declare-fun x_4_0_2 () Bool)
(declare-fun x_4_0_1 () Bool)
(declare-fun x_4_0_0 () Bool)
(declare-fun x_5_0_15 () Bool)
(declare-fun x_5_0_14 () Bool)
(declare-fun x_5_0_13 () Bool)
(declare-fun x_5_0_12 () Bool)
(declare-fun x_5_0_11 () Bool)
(declare-fun x_5_0_10 () Bool)
(declare-fun x_5_0_9 () Bool)
(declare-fun x_5_0_8 () Bool)
(declare-fun x_5_0_7 () Bool)
(declare-fun x_5_0_6 () Bool)
(declare-fun x_5_0_5 () Bool)
(declare-fun x_5_0_4 () Bool)
(declare-fun x_5_0_3 () Bool)
(declare-fun x_5_0_2 () Bool)
(declare-fun x_5_0_1 () Bool)
(declare-fun x_5_0_0 () Bool)
(declare-fun x_6_0_14 () Bool)
(declare-fun x_6_0_13 () Bool)
(declare-fun x_6_0_12 () Bool)
(declare-fun x_6_0_11 () Bool)
(declare-fun x_6_0_10 () Bool)
(declare-fun x_6_0_9 () Bool)
(declare-fun x_6_0_8 () Bool)
(declare-fun x_6_0_7 () Bool)
(declare-fun x_6_0_6 () Bool)
(declare-fun x_6_0_5 () Bool)
(declare-fun x_6_0_4 () Bool)
(declare-fun x_6_0_3 () Bool)
(declare-fun x_6_0_2 () Bool)
(declare-fun x_6_0_1 () Bool)
(declare-fun x_6_0_0 () Bool)
(declare-fun x_7_0_14 () Bool)
(declare-fun x_7_0_13 () Bool)
(declare-fun x_7_0_12 () Bool)
(declare-fun x_7_0_11 () Bool)
(declare-fun x_7_0_10 () Bool)
(declare-fun x_7_0_9 () Bool)
(declare-fun x_7_0_8 () Bool)
(declare-fun x_7_0_7 () Bool)
(declare-fun x_7_0_6 () Bool)
(declare-fun x_7_0_5 () Bool)
(declare-fun x_7_0_4 () Bool)
(declare-fun x_7_0_3 () Bool)
(declare-fun x_7_0_2 () Bool)
(declare-fun x_7_0_1 () Bool)
(declare-fun x_7_0_0 () Bool)
(declare-fun x_8_0_13 () Bool)
(declare-fun x_8_0_12 () Bool)
(declare-fun x_8_0_11 () Bool)
(declare-fun x_8_0_10 () Bool)
(declare-fun x_8_0_9 () Bool)
(declare-fun x_8_0_8 () Bool)
(declare-fun x_8_0_7 () Bool)
(declare-fun x_8_0_6 () Bool)
(declare-fun x_8_0_5 () Bool)
(declare-fun x_8_0_4 () Bool)
(declare-fun x_8_0_3 () Bool)
(declare-fun x_8_0_2 () Bool)
(declare-fun x_8_0_1 () Bool)
(declare-fun x_8_0_0 () Bool)
(declare-fun x_9_0_13 () Bool)
(declare-fun x_9_0_12 () Bool)
(declare-fun x_9_0_11 () Bool)
(declare-fun x_9_0_10 () Bool)
(declare-fun x_9_0_9 () Bool)
(declare-fun x_9_0_8 () Bool)
(declare-fun x_9_0_7 () Bool)
(declare-fun x_9_0_6 () Bool)
(declare-fun x_9_0_5 () Bool)
(declare-fun x_9_0_4 () Bool)
(declare-fun x_9_0_3 () Bool)
(declare-fun x_9_0_2 () Bool)
(declare-fun x_9_0_1 () Bool)
(declare-fun x_9_0_0 () Bool)
(declare-fun x_10_1_12 () Bool)
(declare-fun x_10_1_11 () Bool)
(declare-fun x_10_1_10 () Bool)
(declare-fun x_10_1_9 () Bool)
(declare-fun x_10_1_8 () Bool)
(declare-fun x_10_1_7 () Bool)
(declare-fun x_10_1_6 () Bool)
(declare-fun x_10_1_5 () Bool)
(declare-fun x_10_1_4 () Bool)
(declare-fun x_10_1_3 () Bool)
(declare-fun x_10_1_2 () Bool)
(declare-fun x_10_1_1 () Bool)
(declare-fun x_10_1_0 () Bool)
(declare-fun x_10_0_12 () Bool)
(declare-fun x_10_0_11 () Bool)
(declare-fun x_10_0_10 () Bool)
(declare-fun x_10_0_9 () Bool)
(declare-fun x_10_0_8 () Bool)
(declare-fun x_10_0_7 () Bool)
(declare-fun x_10_0_6 () Bool)
(declare-fun x_10_0_5 () Bool)
(declare-fun x_10_0_4 () Bool)
(declare-fun x_10_0_3 () Bool)
(declare-fun x_10_0_2 () Bool)
(declare-fun x_10_0_1 () Bool)
(declare-fun x_10_0_0 () Bool)
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_0
  x_0_0_1
  x_0_0_2
  x_0_0_3
  x_0_0_4
  x_0_0_5
  x_0_0_6
  x_0_0_7
  x_0_0_8
  x_0_0_9
  x_0_0_10
  x_0_0_11
  x_0_0_12
  x_0_0_13
  x_0_0_14
  x_0_0_15
  x_0_0_16
  x_0_0_17))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_0
  x_1_0_1
  x_1_0_2
  x_1_0_3
  x_1_0_4
  x_1_0_5
  x_1_0_6
  x_1_0_7
  x_1_0_8
  x_1_0_9
  x_1_0_10
  x_1_0_11
  x_1_0_12
  x_1_0_13
  x_1_0_14
  x_1_0_15
  x_1_0_16
  x_1_0_17))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_2_0_0
  x_2_0_1
  x_2_0_2
  x_2_0_3
  x_2_0_4
  x_2_0_5
  x_2_0_6
  x_2_0_7
  x_2_0_8
  x_2_0_9
  x_2_0_10
  x_2_0_11
  x_2_0_12
  x_2_0_13
  x_2_0_14
  x_2_0_15
  x_2_0_16))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_3_0_0
  x_3_0_1
  x_3_0_2
  x_3_0_3
  x_3_0_4
  x_3_0_5
  x_3_0_6
  x_3_0_7
  x_3_0_8
  x_3_0_9
  x_3_0_10
  x_3_0_11
  x_3_0_12
  x_3_0_13
  x_3_0_14
  x_3_0_15
  x_3_0_16))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_4_0_6
  x_4_0_7
  x_4_0_8
  x_4_0_9
  x_4_0_10
  x_4_0_11
  x_4_0_12
  x_4_0_13
  x_4_0_14
  x_4_0_15))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_5_0_6
  x_5_0_7
  x_5_0_8
  x_5_0_9
  x_5_0_10
  x_5_0_11
  x_5_0_12
  x_5_0_13
  x_5_0_14
  x_5_0_15))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_6_0_6
  x_6_0_7
  x_6_0_8
  x_6_0_9
  x_6_0_10
  x_6_0_11
  x_6_0_12
  x_6_0_13
  x_6_0_14))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_7_0_0
  x_7_0_1
  x_7_0_2
  x_7_0_3
  x_7_0_4
  x_7_0_5
  x_7_0_6
  x_7_0_7
  x_7_0_8
  x_7_0_9
  x_7_0_10
  x_7_0_11
  x_7_0_12
  x_7_0_13
  x_7_0_14))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_8_0_0
  x_8_0_1
  x_8_0_2
  x_8_0_3
  x_8_0_4
  x_8_0_5
  x_8_0_6
  x_8_0_7
  x_8_0_8
  x_8_0_9
  x_8_0_10
  x_8_0_11
  x_8_0_12
  x_8_0_13))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_9_0_0
  x_9_0_1
  x_9_0_2
  x_9_0_3
  x_9_0_4
  x_9_0_5
  x_9_0_6
  x_9_0_7
  x_9_0_8
  x_9_0_9
  x_9_0_10
  x_9_0_11
  x_9_0_12
  x_9_0_13))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1) x_0_0_0 x_2_0_0 x_4_0_0 x_6_0_0 x_8_0_0 x_10_0_0))
(assert ((_ pbeq 1 1 1 1 1 1 1) x_1_0_0 x_3_0_0 x_5_0_0 x_7_0_0 x_9_0_0 x_10_1_0))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_1
  x_2_0_0
  x_2_0_1
  x_4_0_0
  x_4_0_1
  x_6_0_0
  x_6_0_1
  x_8_0_0
  x_8_0_1
  x_10_0_0
  x_10_0_1))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_1
  x_3_0_0
  x_3_0_1
  x_5_0_0
  x_5_0_1
  x_7_0_0
  x_7_0_1
  x_9_0_0
  x_9_0_1
  x_10_1_0
  x_10_1_1))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_2
  x_2_0_1
  x_2_0_2
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_8_0_0
  x_8_0_1
  x_8_0_2
  x_10_0_0
  x_10_0_1
  x_10_0_2))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_2
  x_3_0_1
  x_3_0_2
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_7_0_0
  x_7_0_1
  x_7_0_2
  x_9_0_0
  x_9_0_1
  x_9_0_2
  x_10_1_0
  x_10_1_1
  x_10_1_2))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_3
  x_2_0_2
  x_2_0_3
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_8_0_0
  x_8_0_1
  x_8_0_2
  x_8_0_3
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_3
  x_3_0_2
  x_3_0_3
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_7_0_0
  x_7_0_1
  x_7_0_2
  x_7_0_3
  x_9_0_0
  x_9_0_1
  x_9_0_2
  x_9_0_3
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_4
  x_2_0_3
  x_2_0_4
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_8_0_0
  x_8_0_1
  x_8_0_2
  x_8_0_3
  x_8_0_4
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_4
  x_3_0_3
  x_3_0_4
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_7_0_1
  x_7_0_2
  x_7_0_3
  x_7_0_4
  x_9_0_0
  x_9_0_1
  x_9_0_2
  x_9_0_3
  x_9_0_4
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_5
  x_2_0_4
  x_2_0_5
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_8_0_1
  x_8_0_2
  x_8_0_3
  x_8_0_4
  x_8_0_5
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_5
  x_3_0_4
  x_3_0_5
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_7_0_2
  x_7_0_3
  x_7_0_4
  x_7_0_5
  x_9_0_1
  x_9_0_2
  x_9_0_3
  x_9_0_4
  x_9_0_5
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_6
  x_2_0_5
  x_2_0_6
  x_4_0_4
  x_4_0_5
  x_4_0_6
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_6_0_6
  x_8_0_2
  x_8_0_3
  x_8_0_4
  x_8_0_5
  x_8_0_6
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_6
  x_3_0_5
  x_3_0_6
  x_5_0_4
  x_5_0_5
  x_5_0_6
  x_7_0_3
  x_7_0_4
  x_7_0_5
  x_7_0_6
  x_9_0_2
  x_9_0_3
  x_9_0_4
  x_9_0_5
  x_9_0_6
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_7
  x_2_0_6
  x_2_0_7
  x_4_0_5
  x_4_0_6
  x_4_0_7
  x_6_0_4
  x_6_0_5
  x_6_0_6
  x_6_0_7
  x_8_0_3
  x_8_0_4
  x_8_0_5
  x_8_0_6
  x_8_0_7
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_7
  x_3_0_6
  x_3_0_7
  x_5_0_5
  x_5_0_6
  x_5_0_7
  x_7_0_4
  x_7_0_5
  x_7_0_6
  x_7_0_7
  x_9_0_3
  x_9_0_4
  x_9_0_5
  x_9_0_6
  x_9_0_7
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_8
  x_2_0_7
  x_2_0_8
  x_4_0_6
  x_4_0_7
  x_4_0_8
  x_6_0_5
  x_6_0_6
  x_6_0_7
  x_6_0_8
  x_8_0_4
  x_8_0_5
  x_8_0_6
  x_8_0_7
  x_8_0_8
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_8
  x_3_0_7
  x_3_0_8
  x_5_0_6
  x_5_0_7
  x_5_0_8
  x_7_0_5
  x_7_0_6
  x_7_0_7
  x_7_0_8
  x_9_0_4
  x_9_0_5
  x_9_0_6
  x_9_0_7
  x_9_0_8
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_9
  x_2_0_8
  x_2_0_9
  x_4_0_7
  x_4_0_8
  x_4_0_9
  x_6_0_6
  x_6_0_7
  x_6_0_8
  x_6_0_9
  x_8_0_5
  x_8_0_6
  x_8_0_7
  x_8_0_8
  x_8_0_9
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_9
  x_3_0_8
  x_3_0_9
  x_5_0_7
  x_5_0_8
  x_5_0_9
  x_7_0_6
  x_7_0_7
  x_7_0_8
  x_7_0_9
  x_9_0_5
  x_9_0_6
  x_9_0_7
  x_9_0_8
  x_9_0_9
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_10
  x_2_0_9
  x_2_0_10
  x_4_0_8
  x_4_0_9
  x_4_0_10
  x_6_0_7
  x_6_0_8
  x_6_0_9
  x_6_0_10
  x_8_0_6
  x_8_0_7
  x_8_0_8
  x_8_0_9
  x_8_0_10
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_10
  x_3_0_9
  x_3_0_10
  x_5_0_8
  x_5_0_9
  x_5_0_10
  x_7_0_7
  x_7_0_8
  x_7_0_9
  x_7_0_10
  x_9_0_6
  x_9_0_7
  x_9_0_8
  x_9_0_9
  x_9_0_10
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_11
  x_2_0_10
  x_2_0_11
  x_4_0_9
  x_4_0_10
  x_4_0_11
  x_6_0_8
  x_6_0_9
  x_6_0_10
  x_6_0_11
  x_8_0_7
  x_8_0_8
  x_8_0_9
  x_8_0_10
  x_8_0_11
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_11
  x_3_0_10
  x_3_0_11
  x_5_0_9
  x_5_0_10
  x_5_0_11
  x_7_0_8
  x_7_0_9
  x_7_0_10
  x_7_0_11
  x_9_0_7
  x_9_0_8
  x_9_0_9
  x_9_0_10
  x_9_0_11
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_12
  x_2_0_11
  x_2_0_12
  x_4_0_10
  x_4_0_11
  x_4_0_12
  x_6_0_9
  x_6_0_10
  x_6_0_11
  x_6_0_12
  x_8_0_8
  x_8_0_9
  x_8_0_10
  x_8_0_11
  x_8_0_12
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_12
  x_3_0_11
  x_3_0_12
  x_5_0_10
  x_5_0_11
  x_5_0_12
  x_7_0_9
  x_7_0_10
  x_7_0_11
  x_7_0_12
  x_9_0_8
  x_9_0_9
  x_9_0_10
  x_9_0_11
  x_9_0_12
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_13
  x_2_0_12
  x_2_0_13
  x_4_0_11
  x_4_0_12
  x_4_0_13
  x_6_0_10
  x_6_0_11
  x_6_0_12
  x_6_0_13
  x_8_0_9
  x_8_0_10
  x_8_0_11
  x_8_0_12
  x_8_0_13
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_13
  x_3_0_12
  x_3_0_13
  x_5_0_11
  x_5_0_12
  x_5_0_13
  x_7_0_10
  x_7_0_11
  x_7_0_12
  x_7_0_13
  x_9_0_9
  x_9_0_10
  x_9_0_11
  x_9_0_12
  x_9_0_13
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_14
  x_2_0_13
  x_2_0_14
  x_4_0_12
  x_4_0_13
  x_4_0_14
  x_6_0_11
  x_6_0_12
  x_6_0_13
  x_6_0_14
  x_8_0_10
  x_8_0_11
  x_8_0_12
  x_8_0_13
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_14
  x_3_0_13
  x_3_0_14
  x_5_0_12
  x_5_0_13
  x_5_0_14
  x_7_0_11
  x_7_0_12
  x_7_0_13
  x_7_0_14
  x_9_0_10
  x_9_0_11
  x_9_0_12
  x_9_0_13
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_15
  x_2_0_14
  x_2_0_15
  x_4_0_13
  x_4_0_14
  x_4_0_15
  x_6_0_12
  x_6_0_13
  x_6_0_14
  x_8_0_11
  x_8_0_12
  x_8_0_13
  x_10_0_10
  x_10_0_11
  x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_15
  x_3_0_14
  x_3_0_15
  x_5_0_13
  x_5_0_14
  x_5_0_15
  x_7_0_12
  x_7_0_13
  x_7_0_14
  x_9_0_11
  x_9_0_12
  x_9_0_13
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1)
  x_0_0_16
  x_2_0_15
  x_2_0_16
  x_4_0_14
  x_4_0_15
  x_6_0_13
  x_6_0_14
  x_8_0_12
  x_8_0_13
  x_10_0_11
  x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1 1 1 1 1 1)
  x_1_0_16
  x_3_0_15
  x_3_0_16
  x_5_0_14
  x_5_0_15
  x_7_0_13
  x_7_0_14
  x_9_0_12
  x_9_0_13
  x_10_1_11
  x_10_1_12))
(assert ((_ pbeq 1 1 1 1 1 1 1) x_0_0_17 x_2_0_16 x_4_0_15 x_6_0_14 x_8_0_13 x_10_0_12))
(assert ((_ pbeq 1 1 1 1 1 1 1) x_1_0_17 x_3_0_16 x_5_0_15 x_7_0_14 x_9_0_13 x_10_1_12))
(assert ((_ pble 3 6 6 6 6 6 6 6 6 6 6 6 6 6)
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12))
(assert ((_ pble 3 6 6 6 6 6 6 6 6 6 6 6 6 6)
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert ((_ pble
    36
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
    4
    4
    4
    4
    4
    4
    4
    4
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    5
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6
    6)
  x_0_0_0
  x_0_0_1
  x_0_0_2
  x_0_0_3
  x_0_0_4
  x_0_0_5
  x_0_0_6
  x_0_0_7
  x_0_0_8
  x_0_0_9
  x_0_0_10
  x_0_0_11
  x_0_0_12
  x_0_0_13
  x_0_0_14
  x_0_0_15
  x_0_0_16
  x_0_0_17
  x_1_0_0
  x_1_0_1
  x_1_0_2
  x_1_0_3
  x_1_0_4
  x_1_0_5
  x_1_0_6
  x_1_0_7
  x_1_0_8
  x_1_0_9
  x_1_0_10
  x_1_0_11
  x_1_0_12
  x_1_0_13
  x_1_0_14
  x_1_0_15
  x_1_0_16
  x_1_0_17
  x_2_0_0
  x_2_0_1
  x_2_0_2
  x_2_0_3
  x_2_0_4
  x_2_0_5
  x_2_0_6
  x_2_0_7
  x_2_0_8
  x_2_0_9
  x_2_0_10
  x_2_0_11
  x_2_0_12
  x_2_0_13
  x_2_0_14
  x_2_0_15
  x_2_0_16
  x_3_0_0
  x_3_0_1
  x_3_0_2
  x_3_0_3
  x_3_0_4
  x_3_0_5
  x_3_0_6
  x_3_0_7
  x_3_0_8
  x_3_0_9
  x_3_0_10
  x_3_0_11
  x_3_0_12
  x_3_0_13
  x_3_0_14
  x_3_0_15
  x_3_0_16
  x_4_0_0
  x_4_0_1
  x_4_0_2
  x_4_0_3
  x_4_0_4
  x_4_0_5
  x_4_0_6
  x_4_0_7
  x_4_0_8
  x_4_0_9
  x_4_0_10
  x_4_0_11
  x_4_0_12
  x_4_0_13
  x_4_0_14
  x_4_0_15
  x_5_0_0
  x_5_0_1
  x_5_0_2
  x_5_0_3
  x_5_0_4
  x_5_0_5
  x_5_0_6
  x_5_0_7
  x_5_0_8
  x_5_0_9
  x_5_0_10
  x_5_0_11
  x_5_0_12
  x_5_0_13
  x_5_0_14
  x_5_0_15
  x_6_0_0
  x_6_0_1
  x_6_0_2
  x_6_0_3
  x_6_0_4
  x_6_0_5
  x_6_0_6
  x_6_0_7
  x_6_0_8
  x_6_0_9
  x_6_0_10
  x_6_0_11
  x_6_0_12
  x_6_0_13
  x_6_0_14
  x_7_0_0
  x_7_0_1
  x_7_0_2
  x_7_0_3
  x_7_0_4
  x_7_0_5
  x_7_0_6
  x_7_0_7
  x_7_0_8
  x_7_0_9
  x_7_0_10
  x_7_0_11
  x_7_0_12
  x_7_0_13
  x_7_0_14
  x_8_0_0
  x_8_0_1
  x_8_0_2
  x_8_0_3
  x_8_0_4
  x_8_0_5
  x_8_0_6
  x_8_0_7
  x_8_0_8
  x_8_0_9
  x_8_0_10
  x_8_0_11
  x_8_0_12
  x_8_0_13
  x_9_0_0
  x_9_0_1
  x_9_0_2
  x_9_0_3
  x_9_0_4
  x_9_0_5
  x_9_0_6
  x_9_0_7
  x_9_0_8
  x_9_0_9
  x_9_0_10
  x_9_0_11
  x_9_0_12
  x_9_0_13
  x_10_0_0
  x_10_0_1
  x_10_0_2
  x_10_0_3
  x_10_0_4
  x_10_0_5
  x_10_0_6
  x_10_0_7
  x_10_0_8
  x_10_0_9
  x_10_0_10
  x_10_0_11
  x_10_0_12
  x_10_1_0
  x_10_1_1
  x_10_1_2
  x_10_1_3
  x_10_1_4
  x_10_1_5
  x_10_1_6
  x_10_1_7
  x_10_1_8
  x_10_1_9
  x_10_1_10
  x_10_1_11
  x_10_1_12))
(assert (not x_10_0_7))
(assert (not x_10_0_8))
(assert (not x_10_0_9))
(assert (not x_10_0_10))
(assert (not x_10_0_11))
(assert (not x_10_0_12))
(assert (not x_10_1_7))
(assert (not x_10_1_8))
(assert (not x_10_1_9))
(assert (not x_10_1_10))
(assert (not x_10_1_11))
(assert (not x_10_1_12))
(check-sat)
(exit)
