## mpibench/layers.mk: rados and cephfs backends, network layer, layered run
## (owned by the layers area; appends to the iostrata-bench target).
