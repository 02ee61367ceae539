grammar TallySQL;
script : IDENT* EOF ;
IDENT : [a-z]+ ;
WS : [ \t\r\n]+ -> skip ;
