// tally's SQL: one table per query, GROUP BY / aggregates, DDL, COPY, INSERT, settings
// (SET, RESET, SHOW) and catalog statements (DESCRIBE, SHOW TABLES, EXPLAIN).
// Scripts written for PostgreSQL or DuckDB in this subset parse unchanged.
//
// Operator precedence is spelled out one rule per level (lowest first) so that every
// operand has a fixed level: the bounds of BETWEEN, for instance, are concatenations, and
// `a BETWEEN 1 AND 2 AND b` is `(a BETWEEN 1 AND 2) AND b`.
//
// WITH, subqueries, VALUES, range() and set operations are run by the session
// (runtime/session/query_forms.h). Joins, window functions and the statements of
// unsupportedStatement are recognised only so that the transformer can say they are not
// supported (instead of a bare syntax error).
grammar TallySQL;

// ---------------------------------------------------------------- statements

script : SEMICOLON* (statement (SEMICOLON+ statement)* SEMICOLON*)? EOF ;

statement
  : createTableStatement
  | dropTableStatement
  | copyStatement
  | copyToStatement
  | insertStatement
  | setStatement
  | resetStatement
  | showStatement
  | describeStatement
  | explainStatement
  | selectStatement
  | unsupportedStatement
  ;

createTableStatement
  : CREATE TABLE (IF NOT EXISTS)? identifier
    (LPAREN columnDefinition (COMMA columnDefinition)* RPAREN | AS selectStatement)
  ;

columnDefinition : identifier typeName (NOT NULL_ | NULL_)? ;

dropTableStatement : DROP TABLE (IF EXISTS)? identifier ;

copyStatement : COPY identifier columnList? FROM STRING_LITERAL copyOptions? ;

copyToStatement
  : COPY (identifier columnList? | LPAREN selectStatement RPAREN) TO STRING_LITERAL copyOptions?
  ;

copyOptions : WITH? LPAREN copyOption (COMMA copyOption)* RPAREN ;

columnList : LPAREN identifier (COMMA identifier)* RPAREN ;

copyOption
  : DELIMITER STRING_LITERAL                              # copyDelimiter
  | HEADER booleanOptionValue?                            # copyHeader
  | NULL_ STRING_LITERAL                                   # copyNull
  | FORMAT (identifier | STRING_LITERAL)                  # copyFormat
  ;

booleanOptionValue : TRUE | FALSE | ON | OFF | INTEGER_LITERAL ;

insertStatement
  : INSERT INTO identifier columnList? (VALUES valuesRow (COMMA valuesRow)* | selectStatement)
  ;

valuesRow : LPAREN expression (COMMA expression)* RPAREN ;

// SET [SESSION | GLOBAL] name = value | TO value; `= DEFAULT` resets.
setStatement : SET scope=identifier? name=identifier (EQ | TO) settingValue ;

settingValue
  : STRING_LITERAL | MINUS? INTEGER_LITERAL | DECIMAL_LITERAL | TRUE | FALSE | ON | identifier
  ;

resetStatement : RESET (ALL | identifier) ;

showStatement : SHOW (TABLES | ALL | identifier) ;

describeStatement : DESCRIBE identifier ;

explainStatement : EXPLAIN selectStatement ;

// A SELECT's own ORDER BY / LIMIT bind to it; the trailing ones here follow a parenthesised
// last operand (`(SELECT ...) UNION (SELECT ...) ORDER BY 1`).
selectStatement : withClause? queryTerm setOperation* orderByClause? limitClause? ;

// A SELECT, VALUES rows as a query (`VALUES (1, 'a'), (2, 'b')`), or a parenthesised SELECT
// (an operand of UNION with its own ORDER BY and LIMIT). Only a SELECT: with any query
// inside, '((((1))))' in an expression would make prediction look past every '(' to tell it
// from a subquery, recursing as deep as the parentheses go.
queryTerm : selectCore | valuesList | LPAREN selectCore RPAREN ;

valuesList : VALUES valuesRow (COMMA valuesRow)* ;

selectCore
  : SELECT (DISTINCT distinctOn? | ALL)? selectItem (COMMA selectItem)*
    fromClause?
    whereClause?
    groupByClause?
    havingClause?
    orderByClause?
    limitClause?
  ;

selectItem
  : STAR                                                  # selectStar
  | expression (AS? identifier)?                          # selectExpression
  ;

fromClause : FROM tableReference joinClause* ;

tableReference
  : identifier (AS? identifier)?                          # namedTable
  | STRING_LITERAL (AS? identifier)?                      # fileTable
  | identifier LPAREN STRING_LITERAL (COMMA fileOption)* RPAREN
    (AS? identifier)?                                     # tableFunction
  | identifier LPAREN (expression (COMMA expression)*)? RPAREN
    (AS? identifier columnList?)?                         # seriesFunction
  | LPAREN selectStatement RPAREN (AS? identifier columnList?)?  # derivedTable
  ;

// read_csv('f.csv', header => true, delim => '|'); `=` is accepted for `=>`.
fileOption : identifier (ARROW | EQ) (STRING_LITERAL | booleanOptionValue) ;

whereClause : WHERE expression ;

// PostgreSQL's DISTINCT ON (exprs): the first row of each group in ORDER BY order.
distinctOn : ON LPAREN expression (COMMA expression)* RPAREN ;

groupByClause : GROUP BY (ALL | groupingElement (COMMA groupingElement)*) ;

// A plain key, or a grouping-set form; the GROUP BY is the cross product of its elements.
groupingElement
  : ROLLUP LPAREN groupingColumns (COMMA groupingColumns)* RPAREN          # rollupGrouping
  | CUBE LPAREN groupingColumns (COMMA groupingColumns)* RPAREN            # cubeGrouping
  | GROUPING SETS LPAREN groupingElement (COMMA groupingElement)* RPAREN  # groupingSetsGrouping
  | groupingColumns                                                       # columnsGrouping
  ;

// One key, or a parenthesized list of keys taken together; () is the empty set.
groupingColumns
  : LPAREN expression (COMMA expression)+ RPAREN
  | LPAREN RPAREN
  | expression
  ;

havingClause : HAVING expression ;

orderByClause
  : ORDER BY ALL (ASC | DESC)? (NULLS (FIRST | LAST))?
  | ORDER BY orderItem (COMMA orderItem)*
  ;

orderItem : expression (ASC | DESC)? (NULLS (FIRST | LAST))? ;

limitClause
  : LIMIT limit=expression (OFFSET offset=expression)?
  | OFFSET offset=expression (LIMIT limit=expression)?
  ;

// ---------------------------------------------------------------- not supported

// Statements of PostgreSQL and DuckDB that tally does not run: named in the error.
unsupportedStatement
  : ( UPDATE | DELETE | ALTER | MERGE | TRUNCATE | GRANT | REVOKE | BEGIN | COMMIT
    | ROLLBACK | START | VACUUM | ANALYZE | ATTACH | DETACH | PRAGMA | CALL | EXPORT
    | IMPORT | LOAD | INSTALL | CHECKPOINT | PREPARE | EXECUTE | DEALLOCATE | USE
    | SUMMARIZE | PIVOT | UNPIVOT | COMMENT | LOCK | DISCARD | UPSERT | WITHIN
    | ROLLUP | CUBE | GROUPING | SETS | FILTER
    ) ~SEMICOLON*
  | (CREATE | DROP) ~(TABLE | SEMICOLON) ~SEMICOLON*
  ;

withClause : WITH RECURSIVE? commonTableExpression (COMMA commonTableExpression)* ;

commonTableExpression : identifier columnList? AS LPAREN selectStatement RPAREN ;

setOperation : (UNION | INTERSECT | EXCEPT) (ALL | DISTINCT)? queryTerm ;

joinClause
  : COMMA tableReference
  | joinType? JOIN tableReference
    (ON expression | USING LPAREN identifier (COMMA identifier)* RPAREN)?
  ;

joinType : INNER | CROSS | NATURAL | (LEFT | RIGHT | FULL) OUTER? ;

windowSpecification : LPAREN balancedTokens RPAREN | identifier ;

balancedTokens : (~(LPAREN | RPAREN) | LPAREN balancedTokens RPAREN)* ;

// ---------------------------------------------------------------- expressions

expression : orExpression ;

orExpression : andExpression (OR andExpression)* ;

andExpression : notExpression (AND notExpression)* ;

notExpression : NOT notExpression | predicate ;

predicate : concatExpression predicateSuffix* ;

predicateSuffix
  : comparisonOperator concatExpression                                   # comparison
  | IS NOT? NULL_                                                          # isNull
  | NOT? BETWEEN low=concatExpression AND high=concatExpression           # between
  | NOT? IN LPAREN expression (COMMA expression)* RPAREN                  # inList
  | NOT? IN LPAREN selectStatement RPAREN                                 # inSubquery
  | NOT? (LIKE | ILIKE) concatExpression                                   # like
  ;

comparisonOperator : EQ | DOUBLE_EQ | NEQ | BANG_EQ | LT | LE | GT | GE ;

concatExpression : additiveExpression (CONCAT additiveExpression)* ;

additiveExpression : multiplicativeExpression (additiveOperator multiplicativeExpression)* ;

additiveOperator : PLUS | MINUS ;

multiplicativeExpression : unaryExpression (multiplicativeOperator unaryExpression)* ;

multiplicativeOperator : STAR | SLASH | PERCENT ;

unaryExpression : (PLUS | MINUS) unaryExpression | castExpression ;

castExpression : primary (DOUBLE_COLON typeName)* ;

primary
  : literal
  | dateLiteral
  | timestampLiteral
  | timestampTzLiteral
  | timeLiteral
  | intervalLiteral
  | parameter
  | castFunction
  | caseExpression
  | extractFunction
  | substringFunction
  | trimFunction
  | functionCall
  | columnReference
  | LPAREN expression RPAREN
  | subquery
  | existsSubquery
  ;

literal
  : INTEGER_LITERAL
  | DECIMAL_LITERAL
  | FLOAT_LITERAL
  | STRING_LITERAL
  | TRUE
  | FALSE
  | NULL_
  ;

dateLiteral : DATE STRING_LITERAL ;

timestampLiteral : TIMESTAMP STRING_LITERAL ;

// Read as a cast of the string, as PostgreSQL does.
timestampTzLiteral : (TIMESTAMP WITH TIME ZONE | TIMESTAMPTZ) STRING_LITERAL ;

timeLiteral : TIME STRING_LITERAL ;

// INTERVAL '90' DAY (3), INTERVAL '90 days', and DuckDB's INTERVAL 90 DAYS.
intervalLiteral
  : INTERVAL value=(STRING_LITERAL | INTEGER_LITERAL) intervalUnit
    (LPAREN precision=INTEGER_LITERAL RPAREN)?
  | INTERVAL value=STRING_LITERAL
  ;

intervalUnit
  : DAY | DAYS | MONTH | MONTHS | YEAR | YEARS | HOUR | HOURS | MINUTE | MINUTES | SECOND
  | SECONDS
  ;

parameter : QUESTION ;

castFunction : CAST LPAREN expression AS typeName RPAREN ;

caseExpression
  : CASE operand=expression? caseWhen+ (ELSE elseResult=expression)? END
  ;

caseWhen : WHEN condition=expression THEN result=expression ;

extractFunction : EXTRACT LPAREN extractField FROM expression RPAREN ;

extractField : identifier | STRING_LITERAL ;

// SQL's SUBSTRING(s FROM start FOR count); SUBSTRING(s, start, count) is a functionCall.
substringFunction
  : SUBSTRING LPAREN source=expression FROM position=expression (FOR length=expression)? RPAREN
  ;

// PostgreSQL's TRIM([BOTH | LEADING | TRAILING] [characters] FROM s), and
// TRIM(BOTH | LEADING | TRAILING s [, characters]); TRIM(s [, characters]) is a functionCall.
trimFunction
  : TRIM LPAREN side=(BOTH | LEADING | TRAILING)? characters=expression? FROM
    source=expression RPAREN
  | TRIM LPAREN side=(BOTH | LEADING | TRAILING) source=expression
    (COMMA characters=expression)? RPAREN
  ;


functionCall
  : functionName LPAREN
    ( STAR
    | (DISTINCT | ALL)? expression (COMMA expression)* orderByClause?
    )?
    RPAREN withinGroup? filterClause? (OVER windowSpecification)?
  ;

// PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY x): an ordered-set aggregate's input.
withinGroup : WITHIN GROUP LPAREN orderByClause RPAREN ;

// Aggregate FILTER (WHERE cond): only the rows where cond is true reach the aggregate.
filterClause : FILTER LPAREN WHERE expression RPAREN ;

functionName : identifier | LEFT | RIGHT ;

columnReference : identifier (DOT identifier)? ;

subquery : LPAREN selectStatement RPAREN ;

existsSubquery : EXISTS LPAREN selectStatement RPAREN ;

// ---------------------------------------------------------------- types and names

typeName
  : SMALLINT | INT2
  | INTEGER | INT | INT4
  | BIGINT | INT8
  | REAL | FLOAT4
  | DOUBLE PRECISION? | FLOAT | FLOAT8
  | (DECIMAL | NUMERIC) (LPAREN INTEGER_LITERAL (COMMA INTEGER_LITERAL)? RPAREN)?
  | DATE
  | TIMESTAMP (WITHOUT TIME ZONE)?
  | TIMESTAMP WITH TIME ZONE
  | CHARACTER VARYING (LPAREN INTEGER_LITERAL RPAREN)?
  | (CHAR | CHARACTER) (LPAREN INTEGER_LITERAL RPAREN)?
  | VARCHAR (LPAREN INTEGER_LITERAL RPAREN)?
  | TEXT | STRING
  | BOOLEAN | BOOL
  | identifier  // a name tally does not know: the binder says so by name
  ;

identifier : IDENTIFIER | QUOTED_IDENTIFIER | nonReservedKeyword ;

// Keywords that are also common column names stay usable as names.
nonReservedKeyword
  : SMALLINT | INT2 | INTEGER | INT | INT4 | BIGINT | INT8 | REAL | FLOAT4 | DOUBLE
  | PRECISION | FLOAT | FLOAT8 | DECIMAL | NUMERIC | DATE | CHAR | CHARACTER | VARYING
  | VARCHAR | TEXT | STRING | BOOLEAN | BOOL | TIMESTAMP | TIMESTAMPTZ | TIME | ZONE | WITHOUT
  | YEAR | YEARS | MONTH | MONTHS | DAY | DAYS | INTERVAL | HOUR | HOURS | MINUTE | MINUTES
  | SECOND | SECONDS
  | DELIMITER | HEADER | FORMAT | OFF | FIRST | LAST | NULLS | SUBSTRING | TRIM
  | BOTH | LEADING | TRAILING
  | SET | RESET | SHOW | TABLES | DESCRIBE | EXPLAIN | TO
  | UPDATE | DELETE | ALTER | MERGE | TRUNCATE | GRANT | REVOKE | BEGIN | COMMIT
  | ROLLBACK | START | VACUUM | ANALYZE | ATTACH | DETACH | PRAGMA | CALL | EXPORT
  | IMPORT | LOAD | INSTALL | CHECKPOINT | PREPARE | EXECUTE | DEALLOCATE | USE
  | SUMMARIZE | PIVOT | UNPIVOT | COMMENT | LOCK | DISCARD | UPSERT | WITHIN
  | ROLLUP | CUBE | GROUPING | SETS | FILTER | RECURSIVE
  ;

// ---------------------------------------------------------------- lexer

ALL : A L L ;
BOTH : B O T H ;
CUBE : C U B E ;
FILTER : F I L T E R ;
GROUPING : G R O U P I N G ;
LEADING : L E A D I N G ;
ROLLUP : R O L L U P ;
SETS : S E T S ;
ALTER : A L T E R ;
ANALYZE : A N A L Y Z E ;
AND : A N D ;
AS : A S ;
ASC : A S C ;
ATTACH : A T T A C H ;
BEGIN : B E G I N ;
BETWEEN : B E T W E E N ;
BIGINT : B I G I N T ;
BOOL : B O O L ;
BOOLEAN : B O O L E A N ;
BY : B Y ;
CALL : C A L L ;
CASE : C A S E ;
CAST : C A S T ;
CHAR : C H A R ;
CHARACTER : C H A R A C T E R ;
CHECKPOINT : C H E C K P O I N T ;
COMMENT : C O M M E N T ;
COMMIT : C O M M I T ;
COPY : C O P Y ;
CREATE : C R E A T E ;
CROSS : C R O S S ;
DATE : D A T E ;
DAY : D A Y ;
DAYS : D A Y S ;
DEALLOCATE : D E A L L O C A T E ;
DECIMAL : D E C I M A L ;
DELETE : D E L E T E ;
DELIMITER : D E L I M I T E R ;
DESC : D E S C ;
DESCRIBE : D E S C R I B E ;
DETACH : D E T A C H ;
DISCARD : D I S C A R D ;
DISTINCT : D I S T I N C T ;
DOUBLE : D O U B L E ;
DROP : D R O P ;
ELSE : E L S E ;
END : E N D ;
EXCEPT : E X C E P T ;
EXECUTE : E X E C U T E ;
EXISTS : E X I S T S ;
EXPLAIN : E X P L A I N ;
EXPORT : E X P O R T ;
EXTRACT : E X T R A C T ;
FALSE : F A L S E ;
FIRST : F I R S T ;
FLOAT : F L O A T ;
FLOAT4 : F L O A T '4' ;
FLOAT8 : F L O A T '8' ;
FOR : F O R ;
FORMAT : F O R M A T ;
FROM : F R O M ;
FULL : F U L L ;
GRANT : G R A N T ;
GROUP : G R O U P ;
HAVING : H A V I N G ;
HEADER : H E A D E R ;
HOUR : H O U R ;
HOURS : H O U R S ;
IF : I F ;
ILIKE : I L I K E ;
IMPORT : I M P O R T ;
IN : I N ;
INNER : I N N E R ;
INSERT : I N S E R T ;
INSTALL : I N S T A L L ;
INT : I N T ;
INT2 : I N T '2' ;
INT4 : I N T '4' ;
INT8 : I N T '8' ;
INTEGER : I N T E G E R ;
INTERSECT : I N T E R S E C T ;
INTERVAL : I N T E R V A L ;
INTO : I N T O ;
IS : I S ;
JOIN : J O I N ;
LAST : L A S T ;
LEFT : L E F T ;
LIKE : L I K E ;
LIMIT : L I M I T ;
LOAD : L O A D ;
LOCK : L O C K ;
MERGE : M E R G E ;
MINUTE : M I N U T E ;
MINUTES : M I N U T E S ;
MONTH : M O N T H ;
MONTHS : M O N T H S ;
NATURAL : N A T U R A L ;
NOT : N O T ;
NULL_ : N U L L ; // not NULL: that is a C macro
NULLS : N U L L S ;
NUMERIC : N U M E R I C ;
OFF : O F F ;
OFFSET : O F F S E T ;
ON : O N ;
OR : O R ;
ORDER : O R D E R ;
OUTER : O U T E R ;
OVER : O V E R ;
PIVOT : P I V O T ;
PRAGMA : P R A G M A ;
PRECISION : P R E C I S I O N ;
PREPARE : P R E P A R E ;
REAL : R E A L ;
RECURSIVE : R E C U R S I V E ;
RESET : R E S E T ;
REVOKE : R E V O K E ;
RIGHT : R I G H T ;
ROLLBACK : R O L L B A C K ;
SECOND : S E C O N D ;
SECONDS : S E C O N D S ;
SELECT : S E L E C T ;
SET : S E T ;
SHOW : S H O W ;
SMALLINT : S M A L L I N T ;
START : S T A R T ;
STRING : S T R I N G ;
SUBSTRING : S U B S T R I N G ;
SUMMARIZE : S U M M A R I Z E ;
TABLE : T A B L E ;
TABLES : T A B L E S ;
TEXT : T E X T ;
THEN : T H E N ;
TIME : T I M E ;
TIMESTAMP : T I M E S T A M P ;
TIMESTAMPTZ : T I M E S T A M P T Z ;
TO : T O ;
TRAILING : T R A I L I N G ;
TRIM : T R I M ;
TRUE : T R U E ;
TRUNCATE : T R U N C A T E ;
UNION : U N I O N ;
UNPIVOT : U N P I V O T ;
UPDATE : U P D A T E ;
UPSERT : U P S E R T ;
USE : U S E ;
USING : U S I N G ;
VACUUM : V A C U U M ;
VALUES : V A L U E S ;
VARCHAR : V A R C H A R ;
VARYING : V A R Y I N G ;
WHEN : W H E N ;
WHERE : W H E R E ;
WITH : W I T H ;
WITHIN : W I T H I N ;
WITHOUT : W I T H O U T ;
YEAR : Y E A R ;
YEARS : Y E A R S ;
ZONE : Z O N E ;

DOUBLE_COLON : '::' ;
CONCAT : '||' ;
DOUBLE_EQ : '==' ;
EQ : '=' ;
ARROW : '=>' ;
NEQ : '<>' ;
BANG_EQ : '!=' ;
LE : '<=' ;
GE : '>=' ;
LT : '<' ;
GT : '>' ;
PLUS : '+' ;
MINUS : '-' ;
STAR : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
LPAREN : '(' ;
RPAREN : ')' ;
COMMA : ',' ;
DOT : '.' ;
SEMICOLON : ';' ;
QUESTION : '?' ;

FLOAT_LITERAL : (DIGIT+ ('.' DIGIT*)? | '.' DIGIT+) [eE] [+-]? DIGIT+ ;
DECIMAL_LITERAL : DIGIT+ '.' DIGIT* | '.' DIGIT+ ;
INTEGER_LITERAL : DIGIT+ ;

STRING_LITERAL : '\'' (~'\'' | '\'\'')* '\'' ;
UNTERMINATED_STRING_LITERAL : '\'' (~'\'' | '\'\'')* EOF ;

IDENTIFIER : [a-zA-Z_\u0080-\u{10FFFF}] [a-zA-Z_0-9$\u0080-\u{10FFFF}]* ;
QUOTED_IDENTIFIER : '"' (~'"' | '""')* '"' ;
UNTERMINATED_QUOTED_IDENTIFIER : '"' (~'"' | '""')* EOF ;

LINE_COMMENT : '--' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
// Never contains "*/": a terminated comment is always the BLOCK_COMMENT match.
UNTERMINATED_BLOCK_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF ;

WHITESPACE : [ \t\r\n\f]+ -> skip ;

// Anything else reaches the parser as one token, which no rule accepts: the error then
// comes from the parser, in text order, with the usual message.
UNEXPECTED_CHARACTER : . ;

fragment DIGIT : [0-9] ;
fragment A : [aA] ;
fragment B : [bB] ;
fragment C : [cC] ;
fragment D : [dD] ;
fragment E : [eE] ;
fragment F : [fF] ;
fragment G : [gG] ;
fragment H : [hH] ;
fragment I : [iI] ;
fragment J : [jJ] ;
fragment K : [kK] ;
fragment L : [lL] ;
fragment M : [mM] ;
fragment N : [nN] ;
fragment O : [oO] ;
fragment P : [pP] ;
fragment Q : [qQ] ;
fragment R : [rR] ;
fragment S : [sS] ;
fragment T : [tT] ;
fragment U : [uU] ;
fragment V : [vV] ;
fragment W : [wW] ;
fragment X : [xX] ;
fragment Y : [yY] ;
fragment Z : [zZ] ;
