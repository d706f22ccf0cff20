module jvmtuning.dev/images

go 1.26
