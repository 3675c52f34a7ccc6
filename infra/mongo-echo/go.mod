module ycsbctl/infra/mongo-echo

go 1.22
