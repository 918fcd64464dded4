// Package cnn is the convolutional policy network predictor of the DCNN paper ("Training a deep neural
// network for computer Go player for next-move prediction", after Tian & Zhu's Darkforest): the 27 input
// planes of analysis/feature, a 5x5 convolution, 3x3 convolutions, each followed by batch normalisation
// and ReLU, no pooling, and a final 1x1 convolution to one plane whose softmax over the legal moves is the
// distribution (§3.2). Inference and training are Go code on internal/sgemm (im2col + GEMM); batch
// normalisation is folded into the convolutions for inference.
package cnn
