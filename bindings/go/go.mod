module github.com/oblivex/oblivex/bindings/go

go 1.26
